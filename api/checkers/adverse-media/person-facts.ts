import occupationData from './occupations.json' with { type: 'json' };
import placeData from './places.json' with { type: 'json' };

/**
 * What a news sentence says about the person it names, read from the words right beside the name, the way
 * news writing introduces people: "John Smith, 45, of Houston", "Perth businessman John Smith",
 * "John Smith, a plumber from Geelong", "Acme Mining chief executive John Smith". Pure and text-only.
 */

export interface PersonFacts {
  /** Ages the sentence gives the person ("Smith, 45," / "a 45-year-old"). */
  ages: number[];
  /** Places beside the name, each with the one country it belongs to (places of several countries are left out). */
  places: Array<{ place: string; country: string }>;
  /** Occupation words beside the name, as listed in occupations.json. */
  occupations: string[];
  /** Capitalised organisation names the role words tie the person to ("chief executive of Acme Mining"). */
  organisations: string[];
}

const placeCountries = new Map<string, Set<string>>();
for (const [country, places] of Object.entries(placeData.countries)) {
  for (const place of places) placeCountries.set(place, (placeCountries.get(place) ?? new Set()).add(country));
}
const placeAlternation = [...placeCountries.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|');
// Case-sensitive on purpose: "WA", "US", "Perth" are proper nouns only when capitalised.
const PLACE = new RegExp(`(?<![\\w-])(${placeAlternation})(?![\\w])`, 'g');

const occupationGroups = new Map<string, Set<string>>();
for (const [group, words] of Object.entries(occupationData.groups)) {
  for (const word of words) occupationGroups.set(word, (occupationGroups.get(word) ?? new Set()).add(group));
}
const OCCUPATION = new RegExp(`\\b(${[...occupationGroups.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|')})\\b`, 'gi');

/** Words after the name (and its age), up to the end of its appositive: ", 45, a plumber from Geelong," */
const APPOSITIVE_AFTER = /^\s*(?:\(\d{1,3}\)\s*)?(?:,\s*\d{1,3}\s*(?=,))?,\s*(?!(?:was|is|has|had|who|and|said|will|were|did|pleaded|faces|appeared|told|says)\b)([^.;:!?"“”]{1,120}?)(?=,\s*(?:was|is|has|had|who|and|said|will|has been|were)\b|[.;:!?"“”]|,|$)/;
const AGE_AFTER = /^\s*(?:,\s*|\()(\d{1,3})(?:\)|,|\s*-year-old)|^\s*,\s*(?:a|an|the)\s+(\d{1,3})-year-old|^\s*,\s*aged\s+(\d{1,3})\b/;
const AGE_BEFORE = /\b(\d{1,3})-year-old\s+(?:[\w'’-]+\s+){0,4}$/;
/** The few words right before the name that make its title: "former Labor MP", "A Houston man,". */
const TITLE_BEFORE = /((?:[\w'’&.-]+\s+){0,5}[\w'’&.-]+,?\s+)$/;
/** "chief executive of Acme Mining", "a director at Ridgeline Civil". */
const ORGANISATION_AFTER_ROLE = /\b(?:of|at|for|with)\s+((?:the\s+)?[A-Z][\w&'’.-]*(?:\s+[A-Z][\w&'’.-]*){0,4})/g;
/** "Acme Mining's chief executive", "Acme Mining chief executive", just before the name. */
const ORGANISATION_BEFORE_ROLE = /([A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3})(?:['’]s)?\s+(?:former\s+)?(?:[a-z][\w-]*\s+){0,2}$/;
/** Capitalised words that start a title without naming an organisation. */
const NOT_ORGANISATIONS = new Set(['The', 'A', 'An', 'Former', 'Police', 'Court', 'Judge', 'Mr', 'Mrs', 'Ms', 'Dr']);

/** The facts in `sentence` about the person named at [start, end). */
export function factsBeside(sentence: string, start: number, end: number): PersonFacts {
  const after = sentence.slice(end);
  const before = sentence.slice(Math.max(0, start - 120), start);
  const appositive = APPOSITIVE_AFTER.exec(after)?.[1] ?? '';
  const title = TITLE_BEFORE.exec(before)?.[1] ?? '';
  const titleWords = lastWordsBeforeSentenceVerb(title);
  const nearby = `${titleWords} ${appositive}`;

  const ages: number[] = [];
  const ageAfter = AGE_AFTER.exec(after);
  const ageText = ageAfter?.[1] ?? ageAfter?.[2] ?? ageAfter?.[3] ?? AGE_BEFORE.exec(before)?.[1] ?? (/\b(\d{1,3})-year-old\b/.exec(appositive)?.[1]);
  if (ageText !== undefined && Number(ageText) >= 10 && Number(ageText) <= 110) ages.push(Number(ageText));

  const places: PersonFacts['places'] = [];
  for (const found of nearby.matchAll(PLACE)) {
    const countries = placeCountries.get(found[1]!);
    if (countries?.size === 1) places.push({ place: found[1]!, country: [...countries][0]! });
  }

  const occupations = [...nearby.matchAll(OCCUPATION)].map((found) => found[1]!.toLowerCase());
  const organisations = [...appositive.matchAll(ORGANISATION_AFTER_ROLE)].map((found) => found[1]!.replace(/^the\s+/i, '').trim());
  const titleOrganisation = occupations.length > 0 ? ORGANISATION_BEFORE_ROLE.exec(titleWords)?.[1] : undefined;
  if (titleOrganisation !== undefined) organisations.push(titleOrganisation);
  const named = organisations
    .map((name) => name.split(/\s+/).filter((word, index) => index > 0 || !NOT_ORGANISATIONS.has(word)).join(' '))
    .filter((name) => name !== '' && !placeCountries.has(name) && occupationsIn(name).length === 0);
  return { ages, places, occupations, organisations: named };
}

/**
 * Only the words of the title that describe the person: "Police said Perth businessman" keeps "Perth
 * businessman". The cut is after the last lower-case verb-like word that starts a clause.
 */
function lastWordsBeforeSentenceVerb(title: string): string {
  const cut = /.*\b(?:said|says|told|when|after|that|and|but|as|where|while|with|by|against|on|of|to|from|for|named|accused|charged|alleged|revealed|claimed)\s+/i.exec(title);
  return cut ? title.slice(cut[0].length) : title;
}

/** The occupation groups of some occupation words, and of a free-text role such as "Managing Director". */
export function occupationGroupsOf(words: string[]): Set<string> {
  const groups = new Set<string>();
  for (const word of words) for (const group of occupationGroups.get(word.toLowerCase()) ?? []) groups.add(group);
  return groups;
}

export function occupationsIn(text: string): string[] {
  return [...text.matchAll(OCCUPATION)].map((found) => found[1]!.toLowerCase());
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
