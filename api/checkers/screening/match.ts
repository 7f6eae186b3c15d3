/**
 * How one screened name compares with one listed name, and what the date of birth and country add.
 *
 * The name score follows what OFAC's Sanctions List Search describes (Jaro-Winkler per name part and on the
 * whole name, the higher reported) with the tokens aligned as a set, so an order swap ("ABBAS, Abu" and "Abu
 * Abbas") costs nothing. The qualifiers follow OpenSanctions' logic-v1: they only take away (a country that
 * differs −0.2, a birth year that differs −0.15), and what agreed is reported as corroboration rather than
 * added to the score, so a name alone can never look confirmed.
 */

/** Winkler's prefix scale and longest rewarded prefix (Winkler 1990). */
const PREFIX_SCALE = 0.1;
const MAX_PREFIX = 4;
/** Winkler applied the prefix bonus only to pairs already this similar. */
const BOOST_THRESHOLD = 0.7;

/** Jaro-Winkler similarity of two strings, 0 to 1. */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aMatched = new Uint8Array(a.length);
  const bMatched = new Uint8Array(b.length);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(b.length - 1, i + window);
    for (let j = from; j <= to; j++) {
      if (bMatched[j] || a.charCodeAt(i) !== b.charCodeAt(j)) continue;
      aMatched[i] = 1;
      bMatched[j] = 1;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    if (!aMatched[i]) continue;
    while (!bMatched[j]) j++;
    if (a.charCodeAt(i) !== b.charCodeAt(j)) transpositions++;
    j++;
  }
  const jaro = (matches / a.length + matches / b.length + (matches - transpositions / 2) / matches) / 3;
  if (jaro <= BOOST_THRESHOLD) return jaro;
  let prefix = 0;
  while (prefix < MAX_PREFIX && prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  return jaro + prefix * PREFIX_SCALE * (1 - jaro);
}

/**
 * Two name parts below this similarity are different parts: Hawatmeh/Hawatma (0.95) and Husain/Husayn (0.93)
 * pair, Arango/Arana (0.89 on their shared prefix) and Taha/Taher (0.85) do not.
 */
export const TOKEN_FLOOR = 0.9;
/**
 * Parts that sound alike in the usual romanisations pair even when their letters differ more: the same
 * consonants once vowels, y and h are dropped, q and c read as k and doubled letters as one (Osama/Usama,
 * Mousa/Musa, Marzook/Marzuq, Dawa/Daawa, Husayn/Hussein), the same first letter or both a vowel, and lengths
 * within SAME_CONSONANTS_LENGTHS of each other (Abboud and Abd, or Ahmed and Mohamed, share their consonants
 * but are different names). They count as this similar.
 */
const SAME_CONSONANTS = 0.9;
const SAME_CONSONANTS_LENGTHS = 0.67;
/**
 * A short part that is only the start of a long one ("Abd" in "Abdulrahman") scores high on Jaro-Winkler's
 * prefix bonus; parts whose lengths differ more than this are not paired (Mhmd/Mohammad is the limit).
 */
const LENGTH_RATIO_FLOOR = 0.5;
/**
 * A name joined differently ("Abdulrahman", "Abdul Rahman") counts when its letters agree this closely and
 * their lengths differ by JOINED_LENGTH_SLACK letters at most (more is a different name sharing a prefix).
 */
const JOINED_FLOOR = 0.93;
const JOINED_LENGTH_SLACK = 2;
/** Only one part of a name of several agreeing is a surname or given-name hit, never above this. */
const ONE_PART_CEILING = 0.6;
/**
 * Each part left unpaired, after the first, takes this share off: "Abu Abbas" inside "Palestine Liberation
 * Front - Abu Abbas Faction" is not that organisation, while one extra middle name costs nothing.
 */
const UNPAIRED_PENALTY = 0.05;

/** A part's consonants as they sound: vowels, y and h dropped, q and c as k, doubled letters once. */
export function consonantSkeleton(token: string): string {
  return token.replace(/[qc]/g, 'k').replace(/[aeiouyh]/g, '').replace(/(.)\1+/g, '$1');
}

const VOWEL = /^[aeiou]/;

function partSimilarity(a: string, b: string): number {
  const lengths = Math.min(a.length, b.length) / Math.max(a.length, b.length);
  if (lengths < LENGTH_RATIO_FLOOR) return 0;
  const similarity = jaroWinkler(a, b);
  const skeleton = consonantSkeleton(a);
  // a one-consonant skeleton (Ali, Ola, Eli) says too little to pair on
  const sameStart = a[0] === b[0] || (VOWEL.test(a) && VOWEL.test(b));
  const soundsAlike = skeleton.length >= 2 && lengths >= SAME_CONSONANTS_LENGTHS && sameStart && skeleton === consonantSkeleton(b);
  return soundsAlike ? Math.max(similarity, SAME_CONSONANTS) : similarity;
}

/** The listed parts in each rotation, so "AWDA, Abd Al Aziz" is also read as "Abd Aziz Awda". */
function rotations(tokens: readonly string[]): string[] {
  return tokens.map((_, start) => [...tokens.slice(start), ...tokens.slice(0, start)].join(''));
}

/**
 * How alike two names are, 0 to 1, from their tokens (names.ts `nameTokens`). Parts are paired greedily by
 * similarity (Jaro-Winkler, or alike consonants; pairs under TOKEN_FLOOR are not pairs); the score is the
 * share of the better-explained name, lowered by a tenth of the share the other leaves unexplained and by
 * UNPAIRED_PENALTY for each unpaired part after the first, so "Ayman al-Zawahiri" against "Ayman Muhammad
 * Rabi al-Zawahiri" stays high while one shared part of two-part names stays low.
 */
export function nameSimilarity(query: readonly string[], listed: readonly string[]): number {
  if (query.length === 0 || listed.length === 0) return 0;
  const pairs: { similarity: number; q: number; l: number }[] = [];
  for (let q = 0; q < query.length; q++) {
    for (let l = 0; l < listed.length; l++) {
      const similarity = partSimilarity(query[q]!, listed[l]!);
      if (similarity >= TOKEN_FLOOR) pairs.push({ similarity, q, l });
    }
  }
  pairs.sort((x, y) => y.similarity - x.similarity);
  const usedQuery = new Set<number>();
  const usedListed = new Set<number>();
  let total = 0;
  for (const pair of pairs) {
    if (usedQuery.has(pair.q) || usedListed.has(pair.l)) continue;
    usedQuery.add(pair.q);
    usedListed.add(pair.l);
    total += pair.similarity;
  }
  let score = 0;
  const paired = usedQuery.size;
  if (paired > 0) {
    const queryShare = total / query.length;
    const listedShare = total / listed.length;
    const unpaired = query.length + listed.length - 2 * paired;
    score = Math.max(queryShare, listedShare) * (0.9 + 0.1 * Math.min(queryShare, listedShare)) * (1 - UNPAIRED_PENALTY * Math.max(0, unpaired - 1));
    if (paired === 1 && (query.length > 1 || listed.length > 1)) score = Math.min(score, ONE_PART_CEILING);
  }
  // A part split or joined differently: compare the names' letters run together (the listed name in each
  // rotation, since lists write the surname first).
  if (query.length !== listed.length) {
    const joinedQuery = query.join('');
    for (const joinedListed of rotations(listed)) {
      if (Math.abs(joinedQuery.length - joinedListed.length) > JOINED_LENGTH_SLACK) break;
      const joined = jaroWinkler(joinedQuery, joinedListed);
      if (joined >= JOINED_FLOOR) score = Math.max(score, joined);
    }
  }
  return score;
}

export type Agreement = 'agrees' | 'disagrees' | 'unknown';

/**
 * Whether a date of birth (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`) fits the listed ones, each compared at the
 * precision both share: a list that gives only a year agrees with any date in that year.
 */
export function compareDateOfBirth(query: string | undefined, listed: readonly string[]): Agreement {
  if (!query || listed.length === 0) return 'unknown';
  const fits = listed.some((date) => {
    const precision = Math.min(date.length, query.length);
    return date.slice(0, precision) === query.slice(0, precision);
  });
  return fits ? 'agrees' : 'disagrees';
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

// The official long forms the lists print, against the short English names Intl gives for ISO codes.
const COUNTRY_SYNONYMS: Record<string, string> = {
  'russian federation': 'russia',
  'iran islamic republic of': 'iran',
  'islamic republic of iran': 'iran',
  'syrian arab republic': 'syria',
  'democratic peoples republic of korea': 'north korea',
  dprk: 'north korea',
  'korea north': 'north korea',
  'republic of korea': 'south korea',
  'korea south': 'south korea',
  'lao peoples democratic republic': 'laos',
  'united republic of tanzania': 'tanzania',
  'viet nam': 'vietnam',
  'united states of america': 'united states',
  usa: 'united states',
  'united kingdom of great britain and northern ireland': 'united kingdom',
  uk: 'united kingdom',
  'congo democratic republic of the': 'congo kinshasa',
  'democratic republic of the congo': 'congo kinshasa',
  'congo republic of the': 'congo brazzaville',
  'republic of the congo': 'congo brazzaville',
  burma: 'myanmar',
  'myanmar burma': 'myanmar',
  'state of palestine': 'palestinian territories',
  palestine: 'palestinian territories',
  'gaza strip': 'palestinian territories',
  turkiye: 'turkey',
  'cote divoire': 'cote d ivoire',
  'bolivia plurinational state of': 'bolivia',
  'venezuela bolivarian republic of': 'venezuela',
  'moldova republic of': 'moldova',
};

/** A country as one comparable name: an ISO 3166 alpha-2 code becomes its English name; long forms fold. */
export function countryKey(country: string): string {
  const trimmed = country.trim();
  const named = /^[A-Za-z]{2}$/.test(trimmed) ? (regionNames.of(trimmed.toUpperCase()) ?? trimmed) : trimmed;
  const plain = named.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/['’]/g, '').replace(/[^a-z0-9]+/g, ' ').trim();
  // Intl names the two Congos "Congo - Kinshasa" and "Congo - Brazzaville"; the synonyms above use the same.
  return COUNTRY_SYNONYMS[plain] ?? plain;
}

/** Whether a country (name or ISO code) is among the listed nationalities, citizenships and address countries. */
export function compareCountry(query: string | undefined, listed: readonly string[]): Agreement {
  if (!query || listed.length === 0) return 'unknown';
  const wanted = countryKey(query);
  return listed.some((country) => countryKey(country) === wanted) ? 'agrees' : 'disagrees';
}

export type Strength = 'strong' | 'possible' | 'weak';

/** Names at least this alike are candidates; below it a listing is not reported at all. */
export const CANDIDATE_FLOOR = 0.8;
/** A strong match needs a name at least this alike, besides a qualifier that agreed and none that differed. */
export const STRONG_NAME_FLOOR = 0.9;
/** OpenSanctions logic-v1 qualifier weights. */
const COUNTRY_MISMATCH = -0.2;
const DOB_MISMATCH = -0.15;

export interface Judgement {
  score: number;
  strength: Strength;
  /** The qualifiers that agreed: `date_of_birth`, `country`. Empty for a name-only hit. */
  corroboration: string[];
  /** The qualifiers that differed, so a reader sees why a close name is weak. */
  contradiction: string[];
}

/**
 * A name score and the qualifiers' verdicts as one judgement. A name-only hit (no qualifier known) is
 * `possible` at best, never `strong`; a qualifier that differs makes it `weak` whatever the name.
 */
export function judge(nameScore: number, dateOfBirth: Agreement, country: Agreement): Judgement {
  const corroboration: string[] = [];
  const contradiction: string[] = [];
  let score = nameScore;
  if (dateOfBirth === 'agrees') corroboration.push('date_of_birth');
  if (dateOfBirth === 'disagrees') {
    contradiction.push('date_of_birth');
    score += DOB_MISMATCH;
  }
  if (country === 'agrees') corroboration.push('country');
  if (country === 'disagrees') {
    contradiction.push('country');
    score += COUNTRY_MISMATCH;
  }
  let strength: Strength = 'possible';
  if (contradiction.length > 0) strength = 'weak';
  else if (corroboration.length > 0 && nameScore >= STRONG_NAME_FLOOR) strength = 'strong';
  return { score: Math.round(Math.max(0, score) * 1000) / 1000, strength, corroboration, contradiction };
}
