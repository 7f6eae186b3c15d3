import { readdir, readFile } from 'node:fs/promises';
import { z } from 'zod';
import { sniffDocument } from '../../api/documents/sniff.ts';
import { readDocument } from '../../api/documents/read.ts';
import type { BidFilePages, ExtractedRequirement } from '../../api/bids/requirements/extract.ts';
import { requirementKinds } from '../../api/bids/requirements/extract.ts';

/** The labelled tender documents of fixtures/bids/ (see its README) and how extraction is scored on them. */
export const bidFixtures = new URL('../../fixtures/bids/', import.meta.url);

const labelFile = z.object({
  document: z.string(),
  file: z.string(),
  title: z.string(),
  format: z.enum(['text', 'docx', 'pdf']),
  held_out: z.boolean(),
  requirements: z.array(
    z.object({
      kind: z.enum(requirementKinds),
      mandatory: z.boolean(),
      weight: z.number().nullable(),
      page: z.number().int().positive(),
      start: z.number().int().nonnegative(),
      end: z.number().int().positive(),
      text: z.string(),
    }),
  ),
});
export type LabelledDocument = z.infer<typeof labelFile>;
export type Label = LabelledDocument['requirements'][number];

export async function labelledDocuments(): Promise<LabelledDocument[]> {
  const names = (await readdir(bidFixtures)).filter((name) => name.endsWith('.labels.json')).sort();
  return Promise.all(names.map(async (name) => labelFile.parse(JSON.parse(await readFile(new URL(name, bidFixtures), 'utf8')))));
}

/** A fixture's pages as the document readers give them (the PDF text layer, .docx and text as one page). */
export async function readFixturePages(document: LabelledDocument): Promise<BidFilePages> {
  const bytes = new Uint8Array(await readFile(new URL(document.file, bidFixtures)));
  const sniffed = await sniffDocument(bytes);
  if (sniffed.format === null) throw new Error(`${document.file}: not a document the readers accept`);
  const read = await readDocument({ bytes, sha256: '', kind: sniffed.kind, mime: sniffed.mime, filename: document.file }, { maxPages: 100, renderScale: 2, ocr: false });
  return { file_id: document.document, filename: document.file, pages: read.pages.map((page) => ({ n: page.page, text: page.text })) };
}

/** Words of a text, leaving out clause numbers, letters and weights ("6.2", "(a)", "30%"), which are scored apart. */
function tokens(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((token) => token.length > 1 && !/^\d{1,3}$/.test(token)));
}

/**
 * How well an extracted requirement covers a label on the same page: the share of the label's words it holds,
 * 0 when it is mostly other text (under 35% of its words are the label's) so one long block cannot match many.
 */
function coverage(label: Label, found: ExtractedRequirement): number {
  if (label.page !== found.source.page) return 0;
  const want = tokens(label.text);
  const got = tokens(found.text);
  const shared = [...want].filter((token) => got.has(token)).length;
  return shared < 0.35 * got.size ? 0 : shared / want.size;
}

/** Label -> extraction pairs, one to one, best coverage first, each at least 60% of the label's words. */
export function matchLabels(labels: readonly Label[], found: readonly ExtractedRequirement[]): Map<Label, ExtractedRequirement> {
  const pairs = labels.flatMap((label) => found.map((extracted) => ({ label, extracted, score: coverage(label, extracted) }))).filter((pair) => pair.score >= 0.6);
  pairs.sort((a, b) => b.score - a.score);
  const matched = new Map<Label, ExtractedRequirement>();
  const taken = new Set<ExtractedRequirement>();
  for (const pair of pairs) {
    if (matched.has(pair.label) || taken.has(pair.extracted)) continue;
    matched.set(pair.label, pair.extracted);
    taken.add(pair.extracted);
  }
  return matched;
}
