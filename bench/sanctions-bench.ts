/**
 * (l) Sanctions screening: one name against 20,000 listed parties, the size of the three lists together
 * (OFAC's SDN list alone is about 18,000). The parties are generated from a seed, with name parts drawn from
 * pools that repeat the way the real lists do (a fifth of the people carry a Muhammad spelling, many share
 * Ali, Hassan, Ahmad), so the blocking meets its hardest case: a common part shared by thousands of names.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { seededRandom } from '../test/helpers/seeded-random.ts';
import { buildSanctionsIndex, screenName, type SanctionsEntry, type SanctionsIndex, type ScreeningQuery } from '../api/checkers/screening/sanctions.ts';

const COMMON_GIVEN = ['Muhammad', 'Mohammed', 'Mohamed', 'Ahmad', 'Ahmed', 'Ali', 'Hassan', 'Hussein', 'Abdul', 'Omar', 'Ibrahim', 'Yusuf'];
const SYLLABLES = ['ka', 'ri', 'mo', 'ta', 'na', 'se', 'vo', 'lu', 'di', 'ha', 'za', 'be', 'qu', 'ro', 'fi', 'ga', 'ne', 'sh', 'ko', 'yi', 'ar', 'el', 'om', 'us'];
const COMPANY_WORDS = ['Trading', 'Bank', 'Shipping', 'Industries', 'Group', 'Holding', 'International', 'Petroleum', 'Airlines', 'Construction', 'Export', 'Foundation'];
const LEGAL_FORMS = ['LLC', 'Ltd', 'S.A.', 'JSC', 'Company', 'PJSC', ''];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** A made-up name part of two to four syllables, capitalised. */
function part(random: () => number): string {
  const count = 2 + Math.floor(random() * 3);
  const text = Array.from({ length: count }, () => pick(random, SYLLABLES)).join('');
  return text[0]!.toUpperCase() + text.slice(1);
}

function personName(random: () => number): string {
  const given = random() < 0.4 ? pick(random, COMMON_GIVEN) : part(random);
  const middles = Array.from({ length: Math.floor(random() * 3) }, () => (random() < 0.3 ? pick(random, COMMON_GIVEN) : part(random)));
  return `${part(random).toUpperCase()}, ${[given, ...middles].join(' ')}`;
}

function companyName(random: () => number): string {
  const words = [part(random), ...Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, COMPANY_WORDS))];
  return `${words.join(' ').toUpperCase()} ${pick(random, LEGAL_FORMS)}`.trim();
}

/** `count` parties: three people in five, each with up to three aliases, dates of birth and a country. */
export function generateEntries(count: number, seed = 20_000): SanctionsEntry[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => {
    const person = random() < 0.6;
    const name = person ? personName(random) : companyName(random);
    return {
      source: pick(random, ['au_dfat_sanctions', 'au_un_sc_sanctions', 'au_ofac_sdn']),
      list_name: 'generated',
      entry_id: String(i),
      entity_type: person ? 'person' : 'organisation',
      name,
      aliases: Array.from({ length: Math.floor(random() * 4) }, () => (person ? personName(random) : companyName(random))),
      weak_aliases: [],
      dates_of_birth: person ? [String(1940 + Math.floor(random() * 50))] : [],
      nationalities: person ? [pick(random, ['Iran', 'Syria', 'Russia', 'Iraq', 'Lebanon', 'Yemen'])] : [],
      countries: [],
      programmes: [pick(random, ['SDGT', 'IRAN', 'RUSSIA-EO14024', '1267 (ISIL (Da\'esh) and Al-Qaida)'])],
    } satisfies SanctionsEntry;
  });
}

/** A listed name as a person might type it: parts swapped, one dropped or one letter changed. */
function variantOf(random: () => number, name: string): string {
  const parts = name.replace(',', '').split(/\s+/);
  const roll = random();
  if (roll < 0.33) return [...parts.slice(1), parts[0]].join(' ');
  if (roll < 0.66 && parts.length > 2) return parts.filter((_, i) => i !== parts.length - 1).join(' ');
  const at = Math.floor(random() * parts.length);
  const word = parts[at]!;
  const letter = 1 + Math.floor(random() * Math.max(1, word.length - 1));
  parts[at] = `${word.slice(0, letter)}${pick(random, ['a', 'e', 'i', 'o', 'u'])}${word.slice(letter + 1)}`;
  return parts.join(' ');
}

/** Half variants of listed names (with a date of birth half the time), half names not listed. */
export function generateQueries(entries: SanctionsEntry[], count: number, seed = 7): ScreeningQuery[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    if (random() < 0.5) {
      const entry = pick(random, entries);
      return { name: variantOf(random, entry.name), ...(random() < 0.5 && entry.dates_of_birth[0] ? { dob: entry.dates_of_birth[0] } : {}) };
    }
    return { name: random() < 0.6 ? personName(random).replace(',', '') : companyName(random), country: 'AU' };
  });
}

export interface ScreeningBench {
  /** How many parties, listed names (primary and aliases) and queries. */
  entries: number;
  names: number;
  queries: number;
  buildMs: number;
  p50Ms: number;
  p99Ms: number;
  /** Heap the index keeps (see `indexHeapBytes`). */
  indexBytes: number;
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0;
}

/**
 * Node's full garbage collection, without starting Node with --expose-gc: V8 reads the flag when a new
 * context is made, so it is set and the `gc` of a fresh context taken.
 */
function collectGarbage(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * The heap an index of `count` generated parties keeps: measured after full collections around its build,
 * with the parties' rows made inside the window and dropped once it is built, so whatever the index keeps
 * of them counts (as in the API, where the rows read from the release are garbage once the index is built).
 */
export function indexHeapBytes(count: number): { index: SanctionsIndex; bytes: number; buildMs: number } {
  const collect = collectGarbage();
  collect();
  const before = process.memoryUsage().heapUsed;
  let entries: SanctionsEntry[] | null = generateEntries(count);
  const started = performance.now();
  const index = buildSanctionsIndex(entries);
  const buildMs = performance.now() - started;
  entries = null;
  collect();
  return { index, bytes: process.memoryUsage().heapUsed - before, buildMs };
}

export function benchSanctionsScreening(options: { entries?: number; queries?: number } = {}): ScreeningBench {
  const count = options.entries ?? 20_000;
  const queries = generateQueries(generateEntries(count), options.queries ?? 2_000);
  const { index, bytes, buildMs } = indexHeapBytes(count);
  // a warm-up pass, so the timings are of compiled code
  for (const query of queries.slice(0, 200)) screenName(index, query);
  // each query's fastest of three runs, so the pauses of a shared machine are not charged to the screening
  const times = queries.map((query) => Math.min(...[0, 1, 2].map(() => {
    const started = performance.now();
    screenName(index, query);
    return performance.now() - started;
  }))).sort((a, b) => a - b);
  return { entries: index.parties, names: index.names, queries: queries.length, buildMs, p50Ms: percentile(times, 0.5), p99Ms: percentile(times, 0.99), indexBytes: bytes };
}
