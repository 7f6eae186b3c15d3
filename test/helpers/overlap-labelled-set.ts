import path from 'node:path';
import { applicability } from '../../api/checkers/overlap/applicability.ts';
import { tokenise } from '../../api/checkers/overlap/tokens.ts';
import { GUARANTEED_MATCH_WORDS } from '../../api/checkers/overlap/winnow.ts';
import { aiCorpusDir, readCorpusSplit } from '../../scripts/ai-text-corpus.ts';
import type { FakePage } from './fake-web.ts';
import { seededRandom } from './seeded-random.ts';

/**
 * The labelled set of the source-overlap check, built from real prose: the human-written passages (news
 * articles, encyclopaedia entries, learner essays) of the labelled corpus beside the repository
 * (`../shared/corpora/ai-vs-human`, or the folder in SVC_AI_CORPUS_DIR; its texts are read, never copied
 * into the repository). Some passages become web pages on the fake web; the others are authors' own
 * writing, into which a seeded generator copies excerpts of those pages (some with their case, quotes or
 * line breaks changed, which the check folds away), excerpts too short to count, and near misses (an
 * excerpt with every seventh word replaced, so no run reaches ten words).
 *
 * The truth is not the plan but an oracle: every maximal run of ten or more equal words a document shares
 * with a page, found by comparing every 10-word sequence of both (no hashing, no winnowing), so copies the
 * generator did not plan (two passages quoting the same sentence) are labelled too.
 */

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** The labelled corpus's folder (the AI-text checker's corpus, read in place). */
export function corpusDir(env: NodeJS.ProcessEnv = process.env): string {
  return aiCorpusDir(REPO_ROOT, env);
}

/** The human-written passages of both splits, in file order; null when the corpus is absent. */
export function humanPassages(dir = corpusDir()): { file: string; text: string }[] | null {
  const passages: { file: string; text: string }[] = [];
  for (const split of ['train', 'test'] as const) {
    const read = readCorpusSplit(dir, split);
    if (read === null) return null;
    for (const passage of read) if (passage.label === 'human') passages.push({ file: `${split}/${passage.file}`, text: passage.text.trim() });
  }
  return passages;
}

export type PlantKind = 'copied' | 'copied_restyled' | 'too_short' | 'near_miss';

export interface Planted {
  kind: PlantKind;
  /** The page the excerpt came from. */
  page: FakePage;
  /** Words in the excerpt. */
  words: number;
  /** Character span of the excerpt in the document. */
  start: number;
  end: number;
}

export interface LabelledDocument {
  name: string;
  text: string;
  planted: Planted[];
}

export interface TruthRun {
  page: FakePage;
  /** Character span in the document. */
  start: number;
  end: number;
  words: number;
}

export interface LabelledSet {
  pages: FakePage[];
  documents: LabelledDocument[];
}

const PAGE_SHARE = 0.45;

/** Words `from` to `from + count` of `text`, as the text has them. */
function excerpt(text: string, from: number, count: number): string {
  const tokens = tokenise(text);
  return text.slice(tokens[from]!.start, tokens[from + count - 1]!.end);
}

function restyle(text: string, random: () => number): string {
  const styles = [
    (value: string) => value.toUpperCase(),
    (value: string) => value.replace(/'/g, '\u2019').replace(/"/g, '\u201d').replace(/,/g, ' ,'),
    (value: string) => value.replace(/ /g, (space) => (random() < 0.2 ? '\n' : space)),
  ];
  return styles[Math.floor(random() * styles.length)]!(text);
}

const REPLACEMENTS = ['meanwhile', 'notably', 'council', 'harbour', 'eucalypt', 'tender', 'quarterly', 'granite'];

function nearMiss(text: string, random: () => number): string {
  let index = 0;
  return text.replace(/[\p{L}\p{N}]+/gu, (word) => (++index % 7 === 0 ? REPLACEMENTS[Math.floor(random() * REPLACEMENTS.length)]! : word));
}

/**
 * `documents` documents: a third clean, the rest with one to three planted excerpts each. Deterministic for
 * a seed.
 */
export function buildLabelledSet(passages: readonly { file: string; text: string }[], documents = 60, seed = 2026): LabelledSet {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const pageCount = Math.round(passages.length * PAGE_SHARE);
  const pages: FakePage[] = passages.slice(0, pageCount).map((passage, i) => ({
    host: `site${i % 17}.example`,
    path: `/${passage.file.replace(/\.txt$/, '')}`,
    title: passage.text.split(/\s+/).slice(0, 8).join(' '),
    text: passage.text,
  }));
  // Documents are built on prose the check takes (the corpus also holds code and tables, on which it abstains).
  const own = passages.slice(pageCount).filter((passage) => applicability(passage.text, tokenise(passage.text)).applicable);
  const built: LabelledDocument[] = [];
  for (let n = 0; n < documents; n++) {
    const base = own[n % own.length]!.text;
    const sentences = base.split(/(?<=[.!?])\s+/);
    const plants = n % 3 === 0 ? 0 : 1 + Math.floor(random() * 3);
    const inserts: { at: number; kind: PlantKind; page: FakePage; text: string; words: number }[] = [];
    for (let p = 0; p < plants; p++) {
      const page = pick(pages);
      const pageWords = tokenise(page.text).length;
      const roll = random();
      const kind: PlantKind = roll < 0.4 ? 'copied' : roll < 0.7 ? 'copied_restyled' : roll < 0.85 ? 'too_short' : 'near_miss';
      const words = kind === 'too_short' ? 5 + Math.floor(random() * (GUARANTEED_MATCH_WORDS - 5)) : 12 + Math.floor(random() * 70);
      const count = Math.min(words, pageWords);
      const from = Math.floor(random() * (pageWords - count + 1));
      const original = excerpt(page.text, from, count);
      const text = kind === 'copied_restyled' ? restyle(original, random) : kind === 'near_miss' ? nearMiss(original, random) : original;
      inserts.push({ at: Math.floor(random() * (sentences.length + 1)), kind, page, text, words: count });
    }
    inserts.sort((a, b) => a.at - b.at);
    let text = '';
    const planted: Planted[] = [];
    let next = 0;
    sentences.forEach((sentence, index) => {
      while (next < inserts.length && inserts[next]!.at === index) {
        const insert = inserts[next++]!;
        const start = text.length;
        text += `${insert.text}. `;
        planted.push({ kind: insert.kind, page: insert.page, words: insert.words, start, end: start + insert.text.length });
      }
      text += `${sentence} `;
    });
    while (next < inserts.length) {
      const insert = inserts[next++]!;
      const start = text.length;
      text += `${insert.text}. `;
      planted.push({ kind: insert.kind, page: insert.page, words: insert.words, start, end: start + insert.text.length });
    }
    built.push({ name: `doc-${String(n).padStart(2, '0')}`, text: text.trim(), planted });
  }
  return { pages, documents: built };
}

/**
 * Every maximal run of at least `GUARANTEED_MATCH_WORDS` equal words (after tokenising) that `text` shares
 * with each page, by direct comparison of word sequences; of the runs with one page, those inside a longer
 * one of the document are left out, as the check's reply leaves them out (a page repeating a phrase).
 */
export function oracleRuns(text: string, pages: readonly FakePage[]): TruthRun[] {
  const document = tokenise(text);
  const words = document.map((token) => token.norm);
  const key = (list: readonly string[], at: number) => list.slice(at, at + GUARANTEED_MATCH_WORDS).join(' ');
  const runs: TruthRun[] = [];
  for (const page of pages) {
    const pageWords = tokenise(page.text).map((token) => token.norm);
    const starts = new Map<string, number[]>();
    for (let j = 0; j + GUARANTEED_MATCH_WORDS <= pageWords.length; j++) starts.set(key(pageWords, j), [...(starts.get(key(pageWords, j)) ?? []), j]);
    const seen = new Set<string>();
    const pageRuns: TruthRun[] = [];
    for (let i = 0; i + GUARANTEED_MATCH_WORDS <= words.length; i++) {
      for (const j of starts.get(key(words, i)) ?? []) {
        let from = i;
        let pageFrom = j;
        while (from > 0 && pageFrom > 0 && words[from - 1] === pageWords[pageFrom - 1]) {
          from--;
          pageFrom--;
        }
        let to = i + GUARANTEED_MATCH_WORDS;
        let pageTo = j + GUARANTEED_MATCH_WORDS;
        while (to < words.length && pageTo < pageWords.length && words[to] === pageWords[pageTo]) {
          to++;
          pageTo++;
        }
        const id = `${from}:${to}`;
        if (seen.has(id)) continue;
        seen.add(id);
        pageRuns.push({ page, start: document[from]!.start, end: document[to - 1]!.end, words: to - from });
      }
    }
    runs.push(...pageRuns.filter((run) => !pageRuns.some((other) => other !== run && other.start <= run.start && other.end >= run.end && other.words > run.words)));
  }
  return runs;
}
