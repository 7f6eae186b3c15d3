import { judgeOverlap } from '../api/checkers/overlap/analyse.ts';
import { confirmedMatches } from '../api/checkers/overlap/confirm.ts';
import type { OverlapResult } from '../api/checkers/overlap/result.ts';
import { planQueries } from '../api/checkers/overlap/queries.ts';
import { overlapFigures, type SourcedMatch } from '../api/checkers/overlap/summary.ts';
import { tokenise } from '../api/checkers/overlap/tokens.ts';
import { fingerprintText } from '../api/checkers/overlap/winnow.ts';
import { servicesFromEnv } from '../api/providers/index.ts';
import { startFakeWeb, type FakePage } from '../test/helpers/fake-web.ts';
import { corpusDir, humanPassages } from '../test/helpers/overlap-labelled-set.ts';
import { seededRandom } from '../test/helpers/seeded-random.ts';

/**
 * The source-overlap row of `npm run bench` (issue 16 §7): a 5,000-word document checked against the fake
 * web (test/helpers/fake-web.ts: the Brave wire format, pages served over HTTP on 127.0.0.1). The goal row
 * is the CPU of the check's own work once the pages are read: fingerprinting the document, planning its
 * queries, fingerprinting every candidate page and confirming matches against it, and the figures (goal
 * ≤ 500 ms). The whole check through the fake provider (HTTP searches and page reads included, the fake
 * answering in this process) is given beside it for reference.
 *
 * The document and pages are real prose: the human-written passages of the labelled corpus beside the
 * repository (`../shared/corpora/ai-vs-human` or SVC_AI_CORPUS_DIR). Eight pages each hold two excerpts of
 * the document (40 to 80 words) inside other text; seven hold unrelated prose.
 */

export const BENCH_DOCUMENT_WORDS = 5_000;
const SOURCE_PAGES = 8;
const UNRELATED_PAGES = 7;
const EXCERPTS_PER_SOURCE = 2;

export interface OverlapBenchFixture {
  document: string;
  pages: FakePage[];
  /** Character spans in the document of the excerpts placed on source pages. */
  excerpts: { start: number; end: number; page: FakePage }[];
}

/** The document and pages; deterministic for the corpus. */
export function overlapBenchFixture(): OverlapBenchFixture {
  const passages = humanPassages();
  if (passages === null) throw new Error(`bench: the overlap row reads the labelled corpus, which is not at ${corpusDir()} (set SVC_AI_CORPUS_DIR)`);
  const random = seededRandom(500);
  // The document: passages in corpus order until 5,000 words, cut at the 5,000th word.
  let document = '';
  let next = 0;
  while (tokenise(document).length < BENCH_DOCUMENT_WORDS) document += `${passages[next++]!.text}\n\n`;
  const tokens = tokenise(document);
  document = document.slice(0, tokens[BENCH_DOCUMENT_WORDS - 1]!.end);
  const filler = passages.slice(next);
  const pages: FakePage[] = [];
  const excerpts: OverlapBenchFixture['excerpts'] = [];
  for (let i = 0; i < SOURCE_PAGES; i++) {
    const page: FakePage = { host: `source${i}.example`, path: `/article-${i}`, title: `Source ${i}`, text: '' };
    const parts = [filler[(2 * i) % filler.length]!.text];
    for (let e = 0; e < EXCERPTS_PER_SOURCE; e++) {
      const words = 40 + Math.floor(random() * 41);
      // Each excerpt from its own stretch of the document, so no two overlap.
      const slot = i * EXCERPTS_PER_SOURCE + e;
      const stretch = Math.floor(BENCH_DOCUMENT_WORDS / (SOURCE_PAGES * EXCERPTS_PER_SOURCE));
      const from = slot * stretch + Math.floor(random() * (stretch - words));
      const start = tokens[from]!.start;
      const end = tokens[from + words - 1]!.end;
      parts.push(document.slice(start, end));
      excerpts.push({ start, end, page });
    }
    parts.push(filler[(2 * i + 1) % filler.length]!.text);
    page.text = parts.join('\n\n');
    pages.push(page);
  }
  for (let i = 0; i < UNRELATED_PAGES; i++) {
    pages.push({ host: `other${i}.example`, path: `/post-${i}`, title: `Other ${i}`, text: filler[(2 * SOURCE_PAGES + i) % filler.length]!.text });
  }
  return { document, pages, excerpts };
}

export interface OverlapBenchTimes {
  words: number;
  pages: number;
  rounds: number;
  /** Median CPU (user + system) of fingerprinting, queries, page fingerprints, confirmation and figures. */
  workCpuMs: number;
  /** Median wall time and CPU of the whole check through the fake provider (its server in this process). */
  checkWallMs: number;
  checkCpuMs: number;
  /** What the work found against every page, and what the whole check reported. */
  work: { matches: SourcedMatch[]; ratio: number };
  check: OverlapResult;
  fixture: OverlapBenchFixture;
}

function cpuMs(started: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export async function benchOverlap(rounds = Number(process.env.BENCH_CHECKER_ROUNDS ?? 15)): Promise<OverlapBenchTimes> {
  const fixture = overlapBenchFixture();
  const web = await startFakeWeb(fixture.pages);
  try {
    const services = servicesFromEnv({ SVC_BRAVE_SEARCH_KEY: web.apiKey, SVC_BRAVE_SEARCH_URL: web.searchUrl, SVC_BRAVE_SEARCH_INTERVAL_MS: '0' }, web.fetcher, { minIntervalMs: 0 });
    // The pages' text as the page fetcher gives it (HTML to text), read once: the work row starts from there.
    const pageTexts = await Promise.all(fixture.pages.map(async (page) => {
      const read = await services.pages.read(web.urlOf(page));
      if (!read.ok || read.value.text === null) throw new Error(`bench: the fake web did not serve ${web.urlOf(page)}`);
      return { url: web.urlOf(page), text: read.value.text };
    }));
    const work = () => {
      const document = fingerprintText(fixture.document);
      planQueries(fixture.document, document.tokens);
      const matches: SourcedMatch[] = [];
      for (const page of pageTexts) for (const match of confirmedMatches(document, fingerprintText(page.text))) matches.push({ ...match, source_url: page.url });
      const figures = overlapFigures(matches, document.tokens.map((token) => token.start), new Map(), pageTexts.length);
      return { matches, ratio: figures.overlap_ratio };
    };
    const check = () => judgeOverlap(fixture.document, services, { excludedHost: null }, { progress: () => undefined });
    let found = work();
    let checked = await check();
    const workTimes: number[] = [];
    const checkWall: number[] = [];
    const checkCpu: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const cpu = process.cpuUsage();
      found = work();
      workTimes.push(cpuMs(cpu));
      const wallStarted = performance.now();
      const checkStarted = process.cpuUsage();
      checked = await check();
      checkCpu.push(cpuMs(checkStarted));
      checkWall.push(performance.now() - wallStarted);
    }
    return {
      words: BENCH_DOCUMENT_WORDS, pages: fixture.pages.length, rounds,
      workCpuMs: median(workTimes), checkWallMs: median(checkWall), checkCpuMs: median(checkCpu),
      work: found, check: checked, fixture,
    };
  } finally {
    await web.close();
  }
}
