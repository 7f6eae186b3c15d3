import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * The labelled corpus the AI-text estimate is fitted and measured on: English passages, human-written or
 * AI-generated, with `labels.tsv` in each of `train/` and `test/`. It lives beside the repository (never copied
 * into it): `../shared/corpora/ai-vs-human` from the repository root, or the folder in SVC_AI_CORPUS_DIR.
 */
export function aiCorpusDir(repoRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  return env['SVC_AI_CORPUS_DIR'] || path.resolve(repoRoot, '../shared/corpora/ai-vs-human');
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
