import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { imageStandIns, people, standInPdf } from '../../../test/helpers/identity-documents.ts';
import { readText, type ReadTextResult } from '../read-text.ts';
import { countryCode, naturalOrder, readMachineReadableZone, subjectFromText } from './subject.ts';

const textOf = (text: string): ReadTextResult => ({ documents: [{ sha256: 'a'.repeat(64), filename: 'id.png', kind: 'image', page_count: 1, ocr_used: true, pages: [{ page: 1, text, source: 'ocr' }] }] });

describe('the subject read from an identity document', () => {
  it('reads a passport\'s machine-readable zone: name in given-then-surname order, birth date, nationality', () => {
    // The ICAO Doc 9303 part 4 specimen, with the spaces OCR puts into the zone.
    const zone = readMachineReadableZone('UTOPIA\nP<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10');
    assert.deepEqual(zone, { name: 'Anna Maria Eriksson', dob: '1974-08-12', country: null });
    const spaced = readMachineReadableZone('P<AUS SMITH<<JOHN<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<\nPA1234567 4 AUS 7105142 M 3001012 <<<<<<<<<<<<<< 02');
    assert.deepEqual(spaced, { name: 'John Smith', dob: '1971-05-14', country: 'AU' });
  });

  it('puts a two-digit birth year in the century before the document\'s expiry', () => {
    assert.equal(readMachineReadableZone('P<NZLDOE<<JANE<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<\nLA12345672NZL0503017F3105056<<<<<<<<<<<<<<00')?.dob, '2005-03-01');
    assert.equal(readMachineReadableZone('P<NZLDOE<<JANE<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<\nLA12345672NZL4503017F3105056<<<<<<<<<<<<<<00')?.dob, '1945-03-01');
  });

  it('reads an Australian passport and three state driver licences generated as PDFs, through read_text', async () => {
    const person = people[1]!;
    for (const [type, variant, source] of [
      ['australian_passport', 0, 'australian_passport:machine_readable_zone'],
      ['australian_passport', 1, 'australian_passport:printed_fields'],
      ['drivers_licence', 0, 'drivers_licence:printed_fields'],
      ['drivers_licence', 1, 'drivers_licence:printed_fields'],
      ['drivers_licence', 2, 'drivers_licence:printed_fields'],
    ] as const) {
      const read = await readText([await standInPdf(type, variant, person)], { ocr: false }, { now: '2026-11-24T00:00:00.000Z' });
      const subject = subjectFromText(read);
      assert.deepEqual(subject.ok && [subject.subject.name, subject.subject.dob, subject.subject.country, subject.subject.source], ['Priya Mae Fictone', '1975-11-02', 'AU', source], `${type} ${variant}`);
    }
  });

  it('reads a photographed passport (a PNG, through OCR) from its machine-readable zone', async () => {
    const [photo] = await imageStandIns(['australian_passport']);
    const read = await readText([photo!.document], {}, { now: '2026-11-24T00:00:00.000Z' });
    assert.equal(read.documents[0]!.ocr_used, true);
    const subject = subjectFromText(read);
    assert.deepEqual(subject.ok && [subject.subject.name, subject.subject.country, subject.subject.source], ['Priya Mae Fictone', 'AU', 'australian_passport:machine_readable_zone']);
  });

  it('refuses a document that is not an identity document, and one with no text, with what to send instead', async () => {
    const bill = subjectFromText(await readText([await standInPdf('utility_bill', 0, people[1]!)], { ocr: false }, { now: '2026-11-24T00:00:00.000Z' }));
    assert.deepEqual(bill, { ok: false, detail: 'The document reads as a utility bill (electricity, gas, water, telephone, internet), not an identity document, so there is no holder to screen. Send a passport or driver licence, or give `name` instead.' });
    const blank = subjectFromText(textOf('   '));
    assert.equal(blank.ok, false);
    assert.match(blank.ok ? '' : blank.detail, /No text could be read from the document/);
  });

  it('a caller\'s country as ISO alpha-2, from a code, a name or an ICAO code', () => {
    assert.deepEqual(['au', 'Australia', 'NZL', 'New Zealand', 'XX', 'Atlantis'].map(countryCode), ['AU', 'AU', 'NZ', 'NZ', null, null]);
  });

  it('puts a "Surname, Given" name in the order news writes it, and leaves other names alone', () => {
    assert.deepEqual(['SMITH, John', "O'Brien, Sarah Jane", 'Al-Rashid, Mohammed', 'John Smith', 'Acme Pty Ltd, Sydney Branch, NSW'].map(naturalOrder), [
      'John SMITH',
      "Sarah Jane O'Brien",
      'Mohammed Al-Rashid',
      'John Smith',
      'Acme Pty Ltd, Sydney Branch, NSW',
    ]);
  });
});
