import { MEDIA_CATEGORIES, readSentence, strongerReading, type MediaCategory, type MediaSeverity, type SentenceReading } from './categories.ts';
import { escapeRegExp, factsBeside, occupationGroupsOf, occupationsIn, type PersonFacts } from './person-facts.ts';

/**
 * Adverse media about one subject: each news article is read for the subject's name, what the article
 * reports about that person (category and severity, with the sentence that says it), and whether the
 * person it describes can be someone else of the same name (a different age, place, occupation or
 * employer). Pure: the articles come in with whatever text could be read of them.
 */

export interface MediaSubject {
  name: string;
  aliases: string[];
  /** `YYYY`, `YYYY-MM` or `YYYY-MM-DD`. */
  dob: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
  employer: string | null;
  role: string | null;
}

export interface NewsArticle {
  url: string;
  title: string;
  /** The publishing site's domain. */
  domain: string;
  /** ISO date the news index first saw the article; null when unknown. */
  seen: string | null;
  /** The article page's text when it could be fetched; null when only the title is known. */
  text: string | null;
}

/**
 * How the article is tied to the subject: `name_and_details` names the subject and agrees with a detail
 * given (age, place, occupation, employer); `name_only` names the subject with no detail either way;
 * `search_only` is an article the news index matched on the name in text this service could not read (or
 * read without the name in it), listed by its adverse title.
 */
export type MediaMatch = 'name_and_details' | 'name_only' | 'search_only';

export interface MediaHit {
  url: string;
  title: string;
  source: string;
  match: MediaMatch;
  category: MediaCategory;
  severity: MediaSeverity;
  evidence: string;
}

export interface ExcludedArticle {
  url: string;
  title: string;
  reason: string;
}

export type ArticleJudgement =
  | { kind: 'hit'; hit: MediaHit }
  | { kind: 'excluded'; excluded: ExcludedArticle }
  /** Read, and nothing adverse is said beside the subject's name. */
  | { kind: 'not_adverse' }
  /** Neither the title nor the readable text names the subject, and the title reports nothing adverse. */
  | { kind: 'subject_not_seen' };

export function judgeArticle(subject: MediaSubject, article: NewsArticle): ArticleJudgement {
  const sentences = sentencesOf(article);
  const mentions = subjectMentions(subject, sentences);
  if (mentions.length === 0) {
    // The news index matched the name in the article; a page read without it was most likely a paywall or a
    // consent page. The title can show what the article is about, never who: at most a possible hit.
    const reading = readSentence(article.title);
    if (reading === null) return { kind: 'subject_not_seen' };
    return { kind: 'hit', hit: hitOf(article, 'search_only', reading, article.title) };
  }

  let strongest: { reading: SentenceReading; sentence: string } | null = null;
  for (const mention of mentions) {
    const reading = readSentence(mention.sentence);
    if (reading !== null && (strongest === null || strongerReading(strongest.reading, reading) === reading)) strongest = { reading, sentence: mention.sentence };
  }
  // A headline that reports the matter while the body names the subject only in passing: the headline's
  // category, and the sentence that names the subject as the evidence of the tie.
  const headline = strongest === null ? readSentence(article.title) : null;
  if (headline !== null) strongest = { reading: headline, sentence: mentions[0]!.sentence };
  if (strongest === null) return { kind: 'not_adverse' };

  const facts = mentions.filter((mention) => mention.facts !== null).map((mention) => mention.facts!);
  const comparison = compareWithSubject(subject, facts, article);
  const disagreements = [...new Set(comparison.disagreements)];
  if (disagreements.length > 0 && !comparison.agreements.some((agreement) => agreement.strong)) {
    return { kind: 'excluded', excluded: { url: article.url, title: article.title, reason: `${capitalise(disagreements.join('; '))}.` } };
  }
  const match: MediaMatch = comparison.agreements.length > 0 && disagreements.length === 0 ? 'name_and_details' : 'name_only';
  return { kind: 'hit', hit: hitOf(article, match, strongest.reading, strongest.sentence) };
}

function hitOf(article: NewsArticle, match: MediaMatch, reading: SentenceReading, evidence: string): MediaHit {
  return { url: article.url, title: article.title, source: article.domain, match, category: reading.category, severity: reading.severity, evidence: evidence.trim() };
}

export interface MediaSummary {
  matched_hits: number;
  possible_hits: number;
  excluded_same_name: number;
  categories: Record<string, number>;
  hits: MediaHit[];
  excluded: ExcludedArticle[];
  /** Articles read that said nothing adverse beside the subject's name. */
  not_adverse: number;
  /** Articles where the subject's name could not be found in what was readable. */
  subject_not_seen: number;
}

/** Every article judged; the same URL counted once. Hits ordered by match, then severity. */
export function summariseMedia(subject: MediaSubject, articles: NewsArticle[]): MediaSummary {
  const seen = new Set<string>();
  const hits: MediaHit[] = [];
  const excluded: ExcludedArticle[] = [];
  let notAdverse = 0;
  let subjectNotSeen = 0;
  for (const article of articles) {
    if (seen.has(article.url)) continue;
    seen.add(article.url);
    const judgement = judgeArticle(subject, article);
    if (judgement.kind === 'hit') hits.push(judgement.hit);
    else if (judgement.kind === 'excluded') excluded.push(judgement.excluded);
    else if (judgement.kind === 'not_adverse') notAdverse += 1;
    else subjectNotSeen += 1;
  }
  const matchOrder: Record<MediaMatch, number> = { name_and_details: 0, name_only: 1, search_only: 2 };
  const severityOrder: Record<MediaSeverity, number> = { high: 0, medium: 1, low: 2 };
  hits.sort((a, b) => matchOrder[a.match] - matchOrder[b.match] || severityOrder[a.severity] - severityOrder[b.severity]);
  const categories: Record<string, number> = {};
  for (const category of MEDIA_CATEGORIES) {
    const count = hits.filter((hit) => hit.category === category).length;
    if (count > 0) categories[category] = count;
  }
  const matched = hits.filter((hit) => hit.match === 'name_and_details').length;
  return {
    matched_hits: matched,
    possible_hits: hits.length - matched,
    excluded_same_name: excluded.length,
    categories,
    hits,
    excluded,
    not_adverse: notAdverse,
    subject_not_seen: subjectNotSeen,
  };
}

interface Mention {
  sentence: string;
  /** Facts beside a full-name mention; null for a surname-only mention. */
  facts: PersonFacts | null;
}

/**
 * Sentences naming the subject: by a full name (any alias; given names before the surname with up to two
 * middle names or initials between, or "Surname, Given"), and after the first full mention also by the
 * surname alone, as news writing refers back to a person.
 */
function subjectMentions(subject: MediaSubject, sentences: string[]): Mention[] {
  const names = [subject.name, ...subject.aliases].map((name) => fold(name).trim()).filter((name) => name !== '');
  // A name of accents or spaces alone folds to nothing, and an empty pattern would match at every character.
  if (names.length === 0) return [];
  const fullName = new RegExp(names.map(fullNamePattern).join('|'), 'gu');
  const surnames = names.map((name) => name.split(/\s+/).at(-1)!).filter((surname) => surname.length > 2);
  const surnameOnly = surnames.length === 0 ? null : new RegExp(`(?<![\\p{L}])(?:${surnames.map(caseless).join('|')})(?![\\p{L}])`, 'u');
  const mentions: Mention[] = [];
  let named = false;
  for (const sentence of sentences) {
    const folded = fold(sentence);
    const found = [...folded.matchAll(fullName)];
    if (found.length > 0) {
      named = true;
      for (const match of found) mentions.push({ sentence, facts: factsBeside(folded, match.index, match.index + match[0].length) });
    } else if (named && surnameOnly?.test(folded)) {
      mentions.push({ sentence, facts: null });
    }
  }
  return mentions;
}

function fullNamePattern(name: string): string {
  const parts = name.split(/\s+/);
  if (parts.length === 1) return `(?<![\\p{L}])${caseless(parts[0]!)}(?![\\p{L}])`;
  const given = parts[0]!;
  const surname = parts.at(-1)!;
  const middle = `(?:\\s+(?:[A-Z][\\p{L}'’-]*\\.?|${parts.slice(1, -1).map(caseless).join('|') || '(?!)'})){0,2}`;
  return `(?<![\\p{L}])(?:${caseless(given)}${middle}\\s+${caseless(surname)}|${caseless(surname)},?\\s+${caseless(given)})(?![\\p{L}])`;
}

/** A name part matched in any case ("SMITH", "Smith"), written out so the rest of the pattern keeps its case. */
function caseless(part: string): string {
  return [...part].map((char) => (char.toLowerCase() === char.toUpperCase() ? escapeRegExp(char) : `[${char.toLowerCase()}${char.toUpperCase()}]`)).join('');
}

interface Comparison {
  /**
   * Details of the article that fit the subject. A place in the subject's country and an occupation of the
   * same kind are weak (a country, or a trade, holds many people of one name); an age or the employer is
   * strong enough to keep an article that also disagrees on something (then it is a possible hit for a
   * person to weigh, never excluded).
   */
  agreements: Array<{ detail: string; strong: boolean }>;
  disagreements: string[];
}

/** What the article's facts about the named person say against the subject's details. */
function compareWithSubject(subject: MediaSubject, facts: PersonFacts[], article: NewsArticle): Comparison {
  const agreements: Comparison['agreements'] = [];
  const disagreements: string[] = [];
  const name = subject.name;

  const subjectAge = ageAt(subject.dob, article.seen);
  if (subjectAge !== null) {
    for (const age of facts.flatMap((fact) => fact.ages)) {
      if (Math.abs(age - subjectAge) <= 1) agreements.push({ detail: `age ${age}`, strong: true });
      else disagreements.push(`the article gives ${name}'s age as ${age}; the subject was about ${subjectAge} then`);
    }
  }

  if (subject.country !== null) {
    for (const { place, country } of facts.flatMap((fact) => fact.places)) {
      if (country === subject.country) agreements.push({ detail: `place ${place}`, strong: false });
      else disagreements.push(`the article connects ${name} with ${place} (${country}), outside the subject's country ${subject.country}`);
    }
  }

  const employer = subject.employer === null ? null : organisationWords(subject.employer);
  if (employer !== null && employer.size > 0) {
    if (mentionsOrganisation(fold(`${article.title} ${article.text ?? ''}`), employer)) agreements.push({ detail: `employer ${subject.employer}`, strong: true });
    else {
      for (const organisation of facts.flatMap((fact) => fact.organisations)) {
        if (!sharesWord(organisationWords(organisation), employer)) disagreements.push(`the article ties ${name} to ${organisation}, not ${subject.employer}`);
      }
    }
  }

  const articleOccupations = facts.flatMap((fact) => fact.occupations);
  if (subject.role !== null && articleOccupations.length > 0) {
    const subjectGroups = occupationGroupsOf(occupationsIn(subject.role));
    const articleGroups = occupationGroupsOf(articleOccupations);
    if (subjectGroups.size > 0 && articleGroups.size > 0) {
      if ([...articleGroups].some((group) => subjectGroups.has(group))) agreements.push({ detail: `occupation ${articleOccupations.join(', ')}`, strong: false });
      else disagreements.push(`the article describes ${name} as ${withArticle(articleOccupations[0]!)}; the subject is ${withArticle(subject.role.toLowerCase())}`);
    }
  }
  return { agreements, disagreements };
}

/** Whole years between a date (or year) of birth and the article's date; null when either is unknown. */
export function ageAt(dob: string | null, on: string | null): number | null {
  if (dob === null || on === null) return null;
  const birth = /^(\d{4})(?:-(\d{2})-(\d{2}))?$/.exec(dob);
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(on);
  if (birth === null || day === null) return null;
  let age = Number(day[1]) - Number(birth[1]);
  if (birth[2] !== undefined && `${day[2]}-${day[3]}` < `${birth[2]}-${birth[3]}`) age -= 1;
  return age;
}

const LEGAL_FORMS = new Set(['pty', 'ltd', 'limited', 'proprietary', 'inc', 'incorporated', 'corp', 'corporation', 'co', 'company', 'group', 'holdings', 'the', 'llc', 'plc', 'and', '&', 'of', 'australia', 'nz']);

function organisationWords(name: string): Set<string> {
  return new Set(fold(name).toLowerCase().split(/[^\p{L}\p{N}&]+/u).filter((word) => word !== '' && !LEGAL_FORMS.has(word)));
}

function sharesWord(a: Set<string>, b: Set<string>): boolean {
  return [...a].some((word) => b.has(word));
}

function mentionsOrganisation(text: string, employer: Set<string>): boolean {
  const words = [...employer];
  return new RegExp(`(?<![\\p{L}])${words.map(escapeRegExp).join('\\s+')}(?![\\p{L}])`, 'iu').test(text);
}

/**
 * Title and text as sentences: the title is one; the text is cut after . ! ? before a capital or a quote,
 * except after an initial or a title ("Peter J. Walker", "Dr. Chen").
 */
export function sentencesOf(article: NewsArticle): string[] {
  const text = article.text ?? '';
  const body = text
    .split(/\n+|(?<!\b(?:[A-Z]|Mr|Mrs|Ms|Dr|St|Jr|Sr|No)\.)(?<=[.!?]["”’]?)\s+(?=["“‘(]?[A-Z0-9])/)
    .map((sentence) => sentence.replace(/\s+/g, ' ').trim())
    .filter((sentence) => sentence !== '');
  return [article.title.replace(/\s+/g, ' ').trim(), ...body];
}

/** Letters without their accents ("José" -> "Jose"), everything else as written. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '');
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "a plumber", "an accountant", "a university student". */
function withArticle(noun: string): string {
  return `${/^[aeio]|^u(?!ni|se|su)/i.test(noun) ? 'an' : 'a'} ${noun}`;
}
