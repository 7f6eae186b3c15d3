import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fuzzOptions, anyText, piecedText, repeatedText, timed } from '../../../test/helpers/fuzz-text.ts';
import type { ReadTextResult } from '../read-text.ts';
import { summariseMedia, type MediaSubject, type NewsArticle } from './media.ts';
import { factsBeside } from './person-facts.ts';
import { countryCode, naturalOrder, readMachineReadableZone, subjectFromText } from './subject.ts';

/**
 * Fuzzing of the adverse-media text parsers (fast-check): the person-facts reader, the subject readers of an
 * identity document's text and of a caller's name and country, and the article judge. On any text, on text
 * made of the pieces they look for, and on long repeated runs, they return without throwing, within a time
 * bound, and with values of the shape their callers rely on.
 */

const NEWS_PIECES = [
  'John Smith', 'SMITH, John', 'Smith', 'Jane Doe', 'José Álvarez', 'Mr', 'Dr.', ', ', ', 45,', ' (45) ', ', aged 45', 'a 45-year-old ', '-year-old',
  'a plumber', ' from ', 'Geelong', 'Perth', 'Houston', 'WA', 'Sydney', 'businessman ', 'chief executive', ' of ', ' at ', 'Acme Mining', "Acme's ",
  'former Labor MP ', 'The ', 'Police said ', 'was charged with fraud', 'pleaded guilty', 'convicted of bribery', 'fined $2m', 'money laundering',
  'who ', 'said', '. ', '! ', '? ', '"', '“', '”', '\n', '\n\n', ' ', ' ', ' ', '\u00a0', '\u200b', '\u0301', '\ud800',
];
const ZONE_PIECES = ['P<', 'AUS', 'NZL', 'UTO', 'D<<', '<<', '<', '<<<<<<<<<<', 'SMITH', 'JOHN', 'ERIKSSON', 'L898902C3', '7408122', 'F', 'M', '1204159', '\n', ' ', ...'0123456789ABCXYZ'];
const LABEL_PIECES = ['Surname: ', 'Given names: ', 'Name: ', 'Full name ', 'Date of birth: ', 'DOB ', '12/05/1971', '31 Jan 1980', '99/99/9999', 'SMITH', 'John', 'DRIVER LICENCE', 'NSW', 'PASSPORT', 'AUSTRALIA', 'Licence No', '\n', ' ', ':'];

const newsText = fc.oneof({ weight: 3, arbitrary: piecedText(NEWS_PIECES, 200) }, { weight: 1, arbitrary: anyText(800) }, { weight: 1, arbitrary: repeatedText(piecedText(NEWS_PIECES, 5), 200, 2_000) });
const zoneText = fc.oneof({ weight: 3, arbitrary: piecedText(ZONE_PIECES, 120) }, { weight: 1, arbitrary: anyText(300) }, { weight: 1, arbitrary: repeatedText(piecedText(ZONE_PIECES, 4), 200, 3_000) });
const documentText = fc.oneof(zoneText, piecedText(LABEL_PIECES, 80), newsText);
/** Far beyond what any of these take on a loaded machine; a run that exceeds it is a hang. */
const RUN_LIMIT_MS = 1_500;

const textOf = (text: string): ReadTextResult => ({ documents: [{ sha256: 'a'.repeat(64), filename: 'id.png', kind: 'image', page_count: 1, ocr_used: true, pages: [{ page: 1, text, source: 'ocr' }] }] });

describe('adverse-media text parsers under fuzzing', () => {
  it('factsBeside reads any sentence around any span: ages 10 to 110, places and occupations that are in the sentence', () => {
    const sentenceAndSpan = fc.tuple(newsText, fc.nat(), fc.nat()).map(([sentence, a, b]) => {
      const start = a % (sentence.length + 1);
      return { sentence, start, end: start + (b % (sentence.length - start + 1)) };
    });
    fc.assert(
      fc.property(sentenceAndSpan, ({ sentence, start, end }) => {
        const { value: facts, ms } = timed(() => factsBeside(sentence, start, end));
        assert.ok(ms < RUN_LIMIT_MS, `took ${Math.round(ms)} ms`);
        for (const age of facts.ages) assert.ok(Number.isInteger(age) && age >= 10 && age <= 110, String(age));
        for (const { place, country } of facts.places) {
          assert.ok(sentence.includes(place), place);
          assert.match(country, /^[A-Z]{2}$/);
        }
        for (const occupation of facts.occupations) assert.ok(sentence.toLowerCase().includes(occupation), occupation);
        for (const organisation of facts.organisations) assert.notEqual(organisation.trim(), '');
      }),
      fuzzOptions(1_000),
    );
  });

  it('the machine-readable zone reader gives null or a name, a real calendar month and day, and an alpha-2 country', () => {
    fc.assert(
      fc.property(zoneText, (text) => {
        const { value: zone, ms } = timed(() => readMachineReadableZone(text));
        assert.ok(ms < RUN_LIMIT_MS, `took ${Math.round(ms)} ms`);
        if (zone === null) return;
        assert.notEqual(zone.name.trim(), '');
        assert.doesNotMatch(zone.name, /</);
        if (zone.dob !== null) {
          const [, month, day] = /^\d{4}-(\d{2})-(\d{2})$/.exec(zone.dob)!.map(Number);
          assert.ok(month! >= 1 && month! <= 12 && day! >= 1 && day! <= 31, zone.dob);
        }
        if (zone.country !== null) assert.match(zone.country, /^[A-Z]{2}$/);
      }),
      fuzzOptions(1_500),
    );
  });

  it('subjectFromText answers any document text with a named subject or a reason a person can act on', () => {
    fc.assert(
      fc.property(documentText, (text) => {
        const { value: answer, ms } = timed(() => subjectFromText(textOf(text)));
        assert.ok(ms < RUN_LIMIT_MS, `took ${Math.round(ms)} ms`);
        if (answer.ok) {
          assert.notEqual(answer.subject.name.trim(), '');
          if (answer.subject.dob !== null) assert.match(answer.subject.dob, /^\d{4}-\d{2}-\d{2}$/);
        } else {
          assert.match(answer.detail, /^\S.*\.$/);
        }
      }),
      fuzzOptions(600),
    );
  });

  it('naturalOrder is idempotent and keeps every letter; countryCode gives an alpha-2 code or null', () => {
    fc.assert(
      fc.property(fc.oneof(newsText, zoneText), (name) => {
        const { value: ordered, ms } = timed(() => naturalOrder(name));
        assert.ok(ms < RUN_LIMIT_MS, `took ${Math.round(ms)} ms`);
        assert.equal(naturalOrder(ordered), ordered);
        const letters = (text: string) => [...text.replace(/[\s,]/g, '')].sort().join('');
        assert.equal(letters(ordered), letters(name));
        const code = countryCode(name);
        if (code !== null) assert.match(code, /^[A-Z]{2}$/);
      }),
      fuzzOptions(1_000),
    );
  });

  it('summariseMedia judges any articles about any subject: each unique article counted once, each hit with its evidence', () => {
    const subject: fc.Arbitrary<MediaSubject> = fc.record({
      name: fc.oneof(fc.constantFrom('John Smith', 'SMITH, John', 'José Álvarez', 'Li', 'Smith'), anyText(40)),
      aliases: fc.array(fc.oneof(fc.constantFrom('Johnny Smith', 'J. Smith'), anyText(20)), { maxLength: 3 }),
      dob: fc.constantFrom(null, '1971', '1971-05-14'),
      country: fc.constantFrom(null, 'AU', 'US'),
      employer: fc.constantFrom(null, 'Acme Mining Pty Ltd', '&'),
      role: fc.constantFrom(null, 'plumber', 'Managing Director', ''),
    });
    const article: fc.Arbitrary<NewsArticle> = fc.record({
      url: fc.constantFrom('https://news.example/a', 'https://news.example/b', 'https://news.example/c', 'https://other.example/d'),
      title: piecedText(NEWS_PIECES, 20),
      domain: fc.constant('news.example'),
      seen: fc.constantFrom(null, '2026-11-20'),
      text: fc.option(newsText),
    });
    fc.assert(
      fc.property(subject, fc.array(article, { maxLength: 6 }), (who, articles) => {
        const { value: summary, ms } = timed(() => summariseMedia(who, articles));
        assert.ok(ms < RUN_LIMIT_MS, `took ${Math.round(ms)} ms`);
        const judged = summary.hits.length + summary.excluded.length + summary.not_adverse + summary.subject_not_seen;
        assert.equal(judged, new Set(articles.map((each) => each.url)).size);
        assert.equal(summary.matched_hits + summary.possible_hits, summary.hits.length);
        assert.equal(summary.excluded_same_name, summary.excluded.length);
        for (const hit of summary.hits) assert.notEqual(hit.evidence, '');
        for (const excluded of summary.excluded) assert.match(excluded.reason, /^\S.*\.$/s);
      }),
      fuzzOptions(400),
    );
  });
});
