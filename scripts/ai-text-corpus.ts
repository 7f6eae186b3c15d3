import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * The labelled corpus the AI-text estimate is fitted and measured on: English passages, human-written or
 * AI-generated, with `labels.tsv` in each of `train/` and `test/`. It lives beside the repository (never copied
 * into it): the folder in SVC_AI_CORPUS_DIR, else the first `shared/corpora/ai-vs-human` found beside the
 * repository or beside a folder above it (a checkout at `work/main` or at `work/ci/main` finds `work/shared`).
 */
export function aiCorpusDir(repoRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env['SVC_AI_CORPUS_DIR']) return env['SVC_AI_CORPUS_DIR'];
  const beside = path.resolve(repoRoot, '../shared/corpora/ai-vs-human');
  for (let folder = path.resolve(repoRoot, '..'); ; folder = path.dirname(folder)) {
    const candidate = path.join(folder, 'shared/corpora/ai-vs-human');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(folder) === folder) return beside;
  }
}

/**
 * What a test that needs the corpus does when it is absent: skip with a reason everyone sees (the test runner
 * names every skipped test again at the end of the run), so a green run never hides an unmeasured figure.
 */
export function corpusMissing(what: string, corpusDir: string): string {
  const reason = `the labelled AI-vs-human corpus is not at ${corpusDir} (set SVC_AI_CORPUS_DIR): ${what} was not measured`;
  process.stderr.write(`\n*** SKIPPED: ${reason} ***\n\n`);
  return reason;
}

export interface LabelledPassage {
  file: string;
  label: 'human' | 'ai';
  domain: string;
  /** Links an AI rewrite to its human original; empty when the passage has no pair. */
  pairKey: string;
  text: string;
}

const LabelRow = z.object({
  file: z.string().regex(/^[\w.-]+\.txt$/),
  label: z.enum(['human', 'ai']),
  domain: z.string(),
  pair_key: z.string(),
});

/** The passages of one split, or null when the corpus folder is absent. */
export function readCorpusSplit(corpusDir: string, split: 'train' | 'test'): LabelledPassage[] | null {
  const folder = path.join(corpusDir, split);
  const labelsFile = path.join(folder, 'labels.tsv');
  if (!existsSync(labelsFile)) return null;
  const [header, ...rows] = readFileSync(labelsFile, 'utf8').split('\n').filter((line) => line.trim() !== '');
  const columns = header!.split('\t');
  return rows.map((row) => {
    const cells = row.split('\t');
    const record = LabelRow.parse(Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? ''])));
    return { file: record.file, label: record.label, domain: record.domain, pairKey: record.pair_key, text: readFileSync(path.join(folder, record.file), 'utf8') };
  });
}
