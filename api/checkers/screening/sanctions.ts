import { z } from 'zod';
import type { Store } from '../../../data/store.ts';
import { CANDIDATE_FLOOR, compareCountry, compareDateOfBirth, consonantSkeleton, judge, mightMatch, preparedSimilarity, prepareName, type PreparedName, type Strength } from './match.ts';
import { nameTokens, normaliseName } from './names.ts';

/** One listed party as the release's `sanctions_entries` table holds it (data/models/sanctions_entries.sql). */
export const SanctionsEntry = z.object({
  source: z.string(),
  list_name: z.string(),
  entry_id: z.string(),
  entity_type: z.enum(['person', 'organisation', 'vessel', 'aircraft']),
  name: z.string(),
  aliases: z.array(z.string()),
  /** Aliases the list itself grades weak or low quality: kept for reading, not screened (too loose to match on). */
  weak_aliases: z.array(z.string()),
  /** `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, at the precision the list gives. */
  dates_of_birth: z.array(z.string()),
  nationalities: z.array(z.string()),
  /** Countries of address and of birth. */
  countries: z.array(z.string()),
  programmes: z.array(z.string()),
});
export type SanctionsEntry = z.infer<typeof SanctionsEntry>;

/** One list in the index: which source, how many parties, and the date of the file they came from. */
export interface IndexedList {
  source: string;
  list_name: string;
  entries: number;
  as_of: string | null;
}

/** What a screening reads of a listed party that matched: the index keeps these fields, not the rows. */
export interface Listing {
  source: string;
  entry_id: string;
  entity_type: SanctionsEntry['entity_type'];
  name: string;
  dates_of_birth: string[];
  /** Nationalities and countries of address and birth together: the country qualifier reads them as one. */
  countries: string[];
  programmes: string[];
}

const ENTITY_TYPES = SanctionsEntry.shape.entity_type.options;
/** Joins a listing's list fields into one string; no list prints a control character in a date, country or programme. */
const FIELD_SEPARATOR = '\u001f';

/** Groups of integers under integer keys as two typed arrays: where each key's group starts, and the groups end to end. */
interface Postings {
  starts: Uint32Array;
  values: Uint32Array;
}

/** Lists `[key, value, key, value, …]` as Postings of `keyCount` keys: counted first, then filled in place. */
function postingsOf(keyCount: number, filings: readonly number[]): Postings {
  const starts = new Uint32Array(keyCount + 1);
  for (let i = 0; i < filings.length; i += 2) starts[filings[i]! + 1]!++;
  for (let key = 0; key < keyCount; key++) starts[key + 1]! += starts[key]!;
  const values = new Uint32Array(filings.length / 2);
  const next = starts.slice(0, keyCount);
  for (let i = 0; i < filings.length; i += 2) values[next[filings[i]!]!++] = filings[i + 1]!;
  return { starts, values };
}

function group(postings: Postings, key: number): Uint32Array {
  return postings.values.subarray(postings.starts[key]!, postings.starts[key + 1]!);
}

/**
 * The lists held in memory for screening, built for size: about 20,000 parties are held for as long as the
 * release is served, in an API that must stay under 400 MB. Every distinct name part is one string with an
 * integer id; the listed names (primary and strong aliases) are runs of part ids; the blocking groups are
 * typed arrays of name numbers; and of the rows only the fields a screening reports are kept, their repeated
 * texts (sources, countries, programmes, dates) once each. About 0.25 KB per listed party: 5 MB of heap for
 * the bench's 20,000 (bench/sanctions-bench.ts; test/sanctions-bench.test.ts fails over 10 MB).
 */
export interface SanctionsIndex {
  lists: IndexedList[];
  /** How many listed parties and how many listed names (primary names and strong aliases) it screens. */
  parties: number;
  names: number;
  /** Texts many listings share (sources, joined dates, countries and programmes), each held once. */
  texts: string[];
  /** Per party: its source, dates of birth, countries and programmes as indexes into `texts`, then its own fields. */
  partySource: Uint32Array;
  partyDates: Uint32Array;
  partyCountries: Uint32Array;
  partyProgrammes: Uint32Array;
  partyType: Uint8Array;
  partyEntryId: string[];
  partyName: string[];
  /** Per distinct name part (by id): its letters and its consonant skeleton. */
  parts: string[];
  skeletons: string[];
  /** Per listed name: its party, and its part ids (`nameParts` from `nameStarts[name]` to `nameStarts[name + 1]`). */
  nameParty: Uint32Array;
  nameStarts: Uint32Array;
  nameParts: Uint32Array;
  /** The blocking keys (see `blockKeys`) by id, and the names filed under each. */
  keyIds: Map<string, number>;
  blocks: Postings;
  /**
   * Names of two or three parts filed under each pair of their parts' keys (see `pairCodes`), as
   * `name * 4 + pair` so a screening can tell which of a name's pairs (0 to 2) it met; `pairCodes` holds the
   * pair codes in ascending order, the group of `pairCodes[i]` is group `i`.
   */
  pairCodes: Float64Array;
  pairBlocks: Postings;
  /** Scratch counters, one per name, reused by every screening (screening is synchronous). */
  scratch: { hits: Uint8Array; lastToken: Uint32Array; token: number };
}

/**
 * The keys a token is filed under: its first three letters; its first three sounding consonants, marked when
 * it starts with a vowel (so Osama and Usama, or Mohammed and Muhammad, meet); and, for longer tokens, its
 * last three letters (so Ntaganda meets Taganda).
 */
export function blockKeys(token: string): string[] {
  const keys = [`p:${token.slice(0, 3)}`];
  const skeleton = consonantSkeleton(token);
  // a one-consonant skeleton (Ali, Elai) would file thousands of unrelated names together
  if (skeleton.length >= 2) keys.push(`k:${/^[aeiou]/.test(token) ? '_' : ''}${skeleton.slice(0, 3)}`);
  if (token.length >= 5) keys.push(`s:${token.slice(-3)}`);
  return keys;
}

/** A listed name of at most this many parts is also found through any two of its parts, common ones included. */
const SHORT_NAME_PARTS = 3;

/** The keys of a part that pairs are filed under: its first-three-letter and sounding-consonant keys. */
function pairingKeys(token: string): string[] {
  return blockKeys(token).filter((key) => !key.startsWith('s:'));
}

/**
 * The codes a pair of parts is filed under: each combination of their pairing keys' ids, the lower id first,
 * so "AHMAD, Muhammad" is found from "Muhammad Ahmad Rezaei" though both parts are common and the rare one
 * (Rezaei) is not in the listed name. Keys the index has never filed give no code.
 */
function pairCodes(keyIds: ReadonlyMap<string, number>, a: readonly string[], b: readonly string[]): number[] {
  const codes: number[] = [];
  for (const x of a) {
    const xId = keyIds.get(x);
    if (xId === undefined) continue;
    for (const y of b) {
      const yId = keyIds.get(y);
      if (yId !== undefined) codes.push(Math.min(xId, yId) * keyIds.size + Math.max(xId, yId));
    }
  }
  return codes;
}

/** The position of `code` in the ascending `codes`, or -1. */
function findCode(codes: Float64Array, code: number): number {
  let low = 0;
  let high = codes.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = codes[middle]!;
    if (found === code) return middle;
    if (found < code) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** A numbering of strings: each distinct one gets the next id and is held once. */
function numbering(): { ids: Map<string, number>; texts: string[]; idOf: (text: string) => number } {
  const ids = new Map<string, number>();
  const texts: string[] = [];
  return {
    ids,
    texts,
    idOf(text) {
      let id = ids.get(text);
      if (id === undefined) {
        id = texts.push(text) - 1;
        ids.set(text, id);
      }
      return id;
    },
  };
}

/** The parts of every listed name, as ids, with the keys each part files under. */
interface NameParts {
  nameStarts: readonly number[];
  nameParts: readonly number[];
  partKeys: readonly number[][];
  partPairingKeys: readonly ReturnType<typeof pairingKeys>[];
  keyIds: Parameters<typeof pairCodes>[0];
  keyCount: number;
}

/**
 * Files every name under the blocking keys of its parts (once per key), and a short name's part pairs under their
 * pair codes, numbered densely (`codes` holds the codes in order): the filings the postings are built from.
 */
function fileNames({ nameStarts, nameParts, partKeys, partPairingKeys, keyIds, keyCount }: NameParts): { blockFilings: number[]; pairFilings: number[]; codes: Float64Array } {
  const blockFilings: number[] = [];
  const filedIn = new Int32Array(keyCount).fill(-1);
  const pairFilings: number[] = [];
  for (let name = 0; name < nameStarts.length - 1; name++) {
    const from = nameStarts[name]!;
    const to = nameStarts[name + 1]!;
    for (let at = from; at < to; at++) {
      for (const key of partKeys[nameParts[at]!]!) {
        if (filedIn[key] === name) continue;
        filedIn[key] = name;
        blockFilings.push(key, name);
      }
    }
    if (to - from < 2 || to - from > SHORT_NAME_PARTS) continue;
    let pair = 0;
    for (let i = from; i < to; i++) {
      for (let j = i + 1; j < to; j++, pair++) {
        for (const code of new Set(pairCodes(keyIds, partPairingKeys[nameParts[i]!]!, partPairingKeys[nameParts[j]!]!))) {
          pairFilings.push(code, name * 4 + pair);
        }
      }
    }
  }
  const distinctCodes = new Set<number>();
  for (let i = 0; i < pairFilings.length; i += 2) distinctCodes.add(pairFilings[i]!);
  const codes = Float64Array.from(distinctCodes).sort();
  for (let i = 0; i < pairFilings.length; i += 2) pairFilings[i] = findCode(codes, pairFilings[i]!);
  return { blockFilings, pairFilings, codes };
}

export function buildSanctionsIndex(entries: readonly SanctionsEntry[], lists: IndexedList[] = []): SanctionsIndex {
  const shared = numbering();
  const joined = (values: readonly string[]) => shared.idOf(values.join(FIELD_SEPARATOR));
  const partyCount = entries.length;
  const partySource = new Uint32Array(partyCount);
  const partyDates = new Uint32Array(partyCount);
  const partyCountries = new Uint32Array(partyCount);
  const partyProgrammes = new Uint32Array(partyCount);
  const partyType = new Uint8Array(partyCount);
  const partyEntryId: string[] = [];
  const partyName: string[] = [];
  const parts = numbering();
  const nameParty: number[] = [];
  const nameStarts: number[] = [0];
  const nameParts: number[] = [];
  entries.forEach((entry, party) => {
    partySource[party] = shared.idOf(entry.source);
    partyDates[party] = joined(entry.dates_of_birth);
    partyCountries[party] = joined([...entry.nationalities, ...entry.countries]);
    partyProgrammes[party] = joined(entry.programmes);
    partyType[party] = ENTITY_TYPES.indexOf(entry.entity_type);
    partyEntryId.push(entry.entry_id);
    partyName.push(entry.name);
    const seen = new Set<string>();
    for (const text of [entry.name, ...entry.aliases]) {
      const tokens = nameTokens(text);
      const key = tokens.join(' ');
      if (tokens.length === 0 || seen.has(key)) continue;
      seen.add(key);
      nameParty.push(party);
      for (const token of tokens) nameParts.push(parts.idOf(token));
      nameStarts.push(nameParts.length);
    }
  });
  const names = nameParty.length;

  // every part's keys worked out once, as ids; `s:` keys are not pairing keys
  const keys = numbering();
  const partKeys = parts.texts.map((part) => blockKeys(part).map(keys.idOf));
  const partPairingKeys = parts.texts.map(pairingKeys);
  const keyCount = keys.texts.length;

  const { blockFilings, pairFilings, codes } = fileNames({ nameStarts, nameParts, partKeys, partPairingKeys, keyIds: keys.ids, keyCount });

  return {
    lists,
    parties: partyCount,
    names,
    texts: shared.texts,
    partySource,
    partyDates,
    partyCountries,
    partyProgrammes,
    partyType,
    partyEntryId,
    partyName,
    parts: parts.texts,
    skeletons: parts.texts.map(consonantSkeleton),
    nameParty: Uint32Array.from(nameParty),
    nameStarts: Uint32Array.from(nameStarts),
    nameParts: Uint32Array.from(nameParts),
    keyIds: keys.ids,
    blocks: postingsOf(keyCount, blockFilings),
    pairCodes: codes,
    pairBlocks: postingsOf(codes.length, pairFilings),
    scratch: { hits: new Uint8Array(names), lastToken: new Uint32Array(names), token: 0 },
  };
}

/**
 * A listed name's parts and skeletons as the scorer takes them, made for each name a screening looks at rather
 * than kept: two small arrays for each of 50,000 names were a large share of the index's heap.
 */
function listedName(index: SanctionsIndex, name: number): PreparedName {
  const tokens: string[] = [];
  const skeletons: string[] = [];
  for (let at = index.nameStarts[name]!; at < index.nameStarts[name + 1]!; at++) {
    tokens.push(index.parts[index.nameParts[at]!]!);
    skeletons.push(index.skeletons[index.nameParts[at]!]!);
  }
  return { tokens, skeletons };
}

function partsOf(index: SanctionsIndex, name: number): number {
  return index.nameStarts[name + 1]! - index.nameStarts[name]!;
}

function listFieldOf(index: SanctionsIndex, text: number): string[] {
  const value = index.texts[text]!;
  return value === '' ? [] : value.split(FIELD_SEPARATOR);
}

/** The fields a screening reports of one listed party. */
function listingOf(index: SanctionsIndex, party: number): Listing {
  return {
    source: index.texts[index.partySource[party]!]!,
    entry_id: index.partyEntryId[party]!,
    entity_type: ENTITY_TYPES[index.partyType[party]!]!,
    name: index.partyName[party]!,
    dates_of_birth: listFieldOf(index, index.partyDates[party]!),
    countries: listFieldOf(index, index.partyCountries[party]!),
    programmes: listFieldOf(index, index.partyProgrammes[party]!),
  };
}

export interface ScreeningQuery {
  name: string;
  /** `YYYY`, `YYYY-MM` or `YYYY-MM-DD`. */
  dob?: string;
  /** A country name or ISO 3166 alpha-2 code. */
  country?: string;
  aliases?: string[];
}

export interface SanctionsCandidate {
  name: string;
  score: number;
  strength: Strength;
  corroboration: string[];
  topics: string[];
  /** How many of the screened lists name this party. */
  datasets: number;
}

/** The spec's `sanctions` block of the adverse-media result. */
export interface SanctionsBlock {
  candidates: SanctionsCandidate[];
  strong_matches: number;
  possible_matches: number;
  common_name_ambiguity: boolean;
}

/** As many candidates as OpenSanctions' yente returns by default (MAX_MATCHES). */
const MAX_CANDIDATES = 10;

/**
 * A query part whose keys together file more names than this is a common one (Muhammad, Trading, Bank): it
 * still counts in the score, but does not bring names to score while the query has a rarer part.
 */
const COMMON_PART_NAMES = 1_500;

/**
 * The names worth scoring, in two groups. `anchored`: names filed under the keys of the query's rarer parts
 * (its two rarest when every part is common), held by at least two of those parts (or every one, for names
 * of fewer parts), since one shared part is capped low anyway; `anchors` (token indexes) are those parts,
 * for the cheap test before scoring. `short`: names of two or three parts every part of which the query's
 * parts meet, common ones included, through the pair codes.
 */
function blockedNames(index: SanctionsIndex, queryTokens: string[]): { anchored: number[]; short: number[]; anchors: number[] } {
  const distinct = [...new Set(queryTokens)];
  const parts = distinct.map((token) => {
    const buckets = blockKeys(token).flatMap((key) => {
      const id = index.keyIds.get(key);
      return id === undefined ? [] : [group(index.blocks, id)];
    });
    return { at: queryTokens.indexOf(token), buckets, size: buckets.reduce((sum, bucket) => sum + bucket.length, 0) };
  }).sort((a, b) => a.size - b.size);
  const rare = parts.filter((part) => part.size <= COMMON_PART_NAMES);
  // a name made only of common parts is screened on its two rarest (its candidates are many: it is ambiguous)
  const generating = rare.length > 0 ? rare : parts.slice(0, 2);
  const { hits, lastToken } = index.scratch;
  const touched: number[] = [];
  for (const part of generating) {
    const token = ++index.scratch.token;
    for (const bucket of part.buckets) {
      for (const name of bucket) {
        if (lastToken[name] === token) continue;
        lastToken[name] = token;
        if (hits[name] === 0) touched.push(name);
        hits[name]!++;
      }
    }
  }
  const anchored: number[] = [];
  for (const name of touched) {
    if (hits[name]! >= Math.min(2, generating.length, partsOf(index, name))) anchored.push(name);
    hits[name] = 0;
  }
  // which of each short name's pairs the query met: both parts of a two-part name, or two pairs (so all three
  // parts) of a three-part one; a three-part name met on one pair has a part the query lacks
  const pairing = distinct.map(pairingKeys);
  const pairsMet = new Map<number, number>();
  for (let i = 0; i < distinct.length; i++) {
    for (let j = i + 1; j < distinct.length; j++) {
      for (const code of pairCodes(index.keyIds, pairing[i]!, pairing[j]!)) {
        const at = findCode(index.pairCodes, code);
        if (at < 0) continue;
        for (const filed of group(index.pairBlocks, at)) {
          const name = filed >>> 2;
          pairsMet.set(name, (pairsMet.get(name) ?? 0) | (1 << (filed & 3)));
        }
      }
    }
  }
  const short: number[] = [];
  for (const [name, mask] of pairsMet) {
    const met = (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1);
    if (met >= (partsOf(index, name) === 2 ? 1 : 2)) short.push(name);
  }
  return { anchored, short, anchors: generating.map((part) => part.at) };
}

// Programme names and codes to OpenSanctions topics (checkers-research §8.1): the list says what a party is
// sanctioned for only through the programme it is listed under.
const PROGRAMME_TOPICS: [RegExp, string][] = [
  [/\b(SDGT|FTO|terror|ISIL|Al-Qaida|Qaida|Taliban|1267|1988)\b/i, 'crime.terror'],
  [/\b(SDNT|SDNTK|narcotic|drug|ILLICIT-DRUGS)\b/i, 'crime.traffick.drug'],
  [/\b(CYBER|cyber)\b/i, 'crime.cyber'],
  [/\b(NPWMD|proliferation|1718|DPRK|non-proliferation)\b/i, 'export.control'],
  [/\b(GLOMAG|Magnitsky|corruption)\b/i, 'crime.fin'],
  [/\b(TCO|transnational criminal)\b/i, 'crime'],
];

function topicsOf(entries: readonly Listing[]): string[] {
  const topics = new Set(['sanction']);
  for (const programme of entries.flatMap((entry) => entry.programmes)) {
    for (const [pattern, topic] of PROGRAMME_TOPICS) if (pattern.test(programme)) topics.add(topic);
  }
  return [...topics].sort();
}

const STRENGTH_ORDER: Record<Strength, number> = { strong: 0, possible: 1, weak: 2 };

/**
 * The parts of a screened name that are compared: the longest names on the lists have about ten (Spanish and
 * Arabic names with patronymics); text longer than this is not a name, and its pairs of parts would grow
 * with its square.
 */
const MAX_QUERY_PARTS = 12;

/** One listed party (its listings on one or more lists) that matched a screened subject. */
export interface PartyMatch {
  /** The listed name of the best-scoring listing. */
  name: string;
  /** Every listing of the party that matched (one per list that names it). */
  entries: Listing[];
  score: number;
  strength: Strength;
  corroboration: string[];
  contradiction: string[];
}

/**
 * The listed parties a subject matches. Every listing whose name (primary or strong alias) is at least
 * CANDIDATE_FLOOR alike to the subject's name or one of its aliases is judged with the date of birth and
 * country; listings of one party on several lists (same entity type and normalised name) are one match.
 * Ordered strong, possible, weak, then by score.
 */
export function matchParties(index: SanctionsIndex, query: ScreeningQuery): PartyMatch[] {
  const queryNames = [query.name, ...(query.aliases ?? [])]
    .map((name) => nameTokens(name).slice(0, MAX_QUERY_PARTS))
    .filter((tokens) => tokens.length > 0);
  const bestByParty = new Map<number, number>();
  for (const tokens of queryNames) {
    const prepared = prepareName(tokens);
    const { anchored, short, anchors } = blockedNames(index, tokens);
    const chosen = new Set([...anchored.filter((name) => mightMatch(prepared, anchors, listedName(index, name))), ...short]);
    for (const name of chosen) {
      const party = index.nameParty[name]!;
      const similarity = preparedSimilarity(prepared, listedName(index, name));
      if (similarity >= CANDIDATE_FLOOR && similarity > (bestByParty.get(party) ?? 0)) bestByParty.set(party, similarity);
    }
  }
  const parties = new Map<string, PartyMatch>();
  for (const [partyIndex, similarity] of bestByParty) {
    const entry = listingOf(index, partyIndex);
    const judgement = judge(
      similarity,
      compareDateOfBirth(query.dob, entry.dates_of_birth),
      compareCountry(query.country, entry.countries),
    );
    const key = `${entry.entity_type}:${normaliseName(entry.name)}`;
    const party = parties.get(key);
    if (!party) parties.set(key, { name: entry.name, entries: [entry], ...judgement });
    else {
      party.entries.push(entry);
      if (judgement.score > party.score) Object.assign(party, { name: entry.name, ...judgement });
    }
  }
  return [...parties.values()].sort(
    (a, b) => STRENGTH_ORDER[a.strength] - STRENGTH_ORDER[b.strength] || b.score - a.score || a.name.localeCompare(b.name),
  );
}

/**
 * Screens one subject against the index and answers the spec's `sanctions` block: the best MAX_CANDIDATES
 * parties, `datasets` counting the lists that name each. `common_name_ambiguity` is true when the name alone
 * cannot pick out one party: a one-part name, or more than one party matching without a qualifier that differs.
 */
export function screenName(index: SanctionsIndex, query: ScreeningQuery): SanctionsBlock {
  const candidates: SanctionsCandidate[] = matchParties(index, query)
    .slice(0, MAX_CANDIDATES)
    .map((party) => ({
      name: party.name,
      score: party.score,
      strength: party.strength,
      corroboration: party.corroboration,
      topics: topicsOf(party.entries),
      datasets: new Set(party.entries.map((entry) => entry.source)).size,
    }));
  const unrefuted = candidates.filter((candidate) => candidate.strength !== 'weak').length;
  return {
    candidates,
    strong_matches: candidates.filter((candidate) => candidate.strength === 'strong').length,
    possible_matches: candidates.filter((candidate) => candidate.strength === 'possible').length,
    common_name_ambiguity: nameTokens(query.name).length === 1 || unrefuted > 1,
  };
}

const ENTRY_COLUMNS = 'source, list_name, entry_id, entity_type, name, aliases, weak_aliases, dates_of_birth, nationalities, countries, programmes';

/** Reads the release's lists into an index; an older release without the table gives an empty one. */
export async function loadSanctionsIndex(store: Store): Promise<SanctionsIndex> {
  const [table] = await store.all<{ present: boolean }>(
    `SELECT count(*) > 0 AS present FROM information_schema.tables WHERE table_name = 'sanctions_entries'`,
  );
  if (!table?.present) return buildSanctionsIndex([]);
  const rows = await store.all(`SELECT ${ENTRY_COLUMNS} FROM sanctions_entries ORDER BY source, entry_id`);
  const lists = await store.all<IndexedList>(
    `SELECT source, list_name, count(*)::INTEGER AS entries, max(as_of)::VARCHAR AS as_of FROM sanctions_entries GROUP BY source, list_name ORDER BY source`,
  );
  return buildSanctionsIndex(rows.map((row) => SanctionsEntry.parse(row)), lists);
}

const loaded = new WeakMap<Store, Promise<SanctionsIndex>>();

/**
 * The index of a release's store, built on first use and kept while the store lives (a release is replaced
 * with its store, so a new night's lists are read by the first screening after the switch).
 */
export function sanctionsIndexOf(store: Store): Promise<SanctionsIndex> {
  let index = loaded.get(store);
  if (!index) {
    index = loadSanctionsIndex(store);
    loaded.set(store, index);
    // a failed read is not kept, so the next screening tries again
    index.catch(() => loaded.delete(store));
  }
  return index;
}
