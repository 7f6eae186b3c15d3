import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { nameMismatch, readFilePages } from '../../api/bids/file-reading.ts';
import { deriveGaps } from '../../api/bids/gaps.ts';
import type { BidFilePages, ExtractedRequirement } from '../../api/bids/requirements/extract.ts';
import { sniffDocument } from '../../api/documents/sniff.ts';
import type { AnalysisPool } from '../../api/checkers/_runner/pool.ts';

/**
 * The real tender documents of fixtures/corpora/tenders/ (README there), read as a bid upload reads them, and
 * how extracted requirements are matched to the hand labels and scored.
 */
export const TENDER_CORPUS = join(import.meta.dirname, '..', '..', 'fixtures', 'corpora', 'tenders');

const labelKinds = ['clause', 'schedule', 'criterion', 'condition', 'instruction'] as const;

const truthFile = z.object({
  file: z.string(),
  title: z.string(),
  format: z.enum(['pdf', 'docx', 'md']),
  requirements: z.array(
    z.object({
      kind: z.enum(labelKinds),
      mandatory: z.boolean(),
      weight: z.number().nullable(),
      page: z.number().int().positive(),
      section: z.string(),
      text: z.string().min(1),
    }),
  ),
  truth_method: z.literal('read_by_hand'),
});
export type TenderTruth = z.infer<typeof truthFile>;
export type TenderLabel = TenderTruth['requirements'][number];

export interface TenderDocument {
  truth: TenderTruth;
  /** SHA-256 of the truth file's bytes, for the test to hold against the committed labels. */
  truthSha256: string;
}

export function tenderDocuments(): TenderDocument[] {
  return readdirSync(TENDER_CORPUS)
    .filter((name) => name.endsWith('.truth.json'))
    .sort()
    .map((name) => {
      const bytes = readFileSync(join(TENDER_CORPUS, name));
      return { truth: truthFile.parse(JSON.parse(bytes.toString('utf8'))), truthSha256: createHash('sha256').update(bytes).digest('hex') };
    });
}

/**
 * A document's pages as a bid upload stores them: the content judged by the intake sniffing, the name checked
 * against it, and the text read by `readFilePages` in an analysis process, with the upload's options.
 */
export async function readAsUploaded(pool: AnalysisPool, file: string): Promise<BidFilePages> {
  const bytes = new Uint8Array(readFileSync(join(TENDER_CORPUS, file)));
  const sniffed = await sniffDocument(bytes);
  if (sniffed.format === null) throw new Error(`${file}: the intake refuses it (${sniffed.received})`);
  const mismatch = nameMismatch(file, sniffed.kind);
  if (mismatch !== null) throw new Error(mismatch);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const read = await readFilePages(pool, { bytes, sha256, kind: sniffed.kind, mime: sniffed.mime, filename: file }, new Date());
  if (read.status !== 'read') throw new Error(`${file}: ${read.detail}`);
  return { file_id: file, filename: file, pages: read.pages.map((page) => ({ n: page.n, text: page.text })) };
}

/**
 * Words of a text for matching: lower case, letters and digits only, so Markdown markers (`**`, `>`, `\(`),
 * list numbering punctuation and the text layer's spacing do not count; web and e-mail addresses are left out
 * (where a span ends around an address is arbitrary, and an address is no wording).
 */
function words(text: string): string[] {
  const withoutAddresses = text.replace(/\b(?:https?:\/\/|www\.)\S+|\S+@\S+\.\w+/gi, ' ');
  return withoutAddresses.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** Pairs of neighbouring words (single words for a one-word text): order matters, so two sentences built of the same common words do not match. */
function bigrams(text: string): Set<string> {
  const list = words(text);
  if (list.length < 2) return new Set(list);
  return new Set(list.slice(1).map((word, index) => `${list[index]} ${word}`));
}

/** Share of the label's word pairs an extraction must hold, and share of the extraction's that must be the label's. */
export const LABEL_COVERAGE = 0.6;
export const EXTRACTION_COVERAGE = 0.5;

interface Coverage {
  ofLabel: number;
  ofExtraction: number;
}

function coverage(label: Set<string>, labelPage: number, extracted: Set<string>, extractedPage: number): Coverage | null {
  if (labelPage !== extractedPage || label.size === 0 || extracted.size === 0) return null;
  let shared = 0;
  for (const pair of label) if (extracted.has(pair)) shared++;
  const result = { ofLabel: shared / label.size, ofExtraction: shared / extracted.size };
  return result.ofLabel >= LABEL_COVERAGE && result.ofExtraction >= EXTRACTION_COVERAGE ? result : null;
}

export interface Matching {
  /** Label index → extraction index, one to one. */
  pairs: Map<number, number>;
  /** Every label → extraction pair that passes the coverage rule, before the one-to-one choice. */
  candidates: { label: number; extracted: number }[];
}

/**
 * The matching rule: a label and an extraction match when they are on the same page and, as word pairs of
 * their normalised text, the extraction holds at least 60% of the label's and at least 50% of its own are the
 * label's (so one long extraction cannot stand for several labels, nor a fragment for a long label). Pairs are
 * then taken one to one, best first (the product of the two shares).
 */
export function matchRequirements(labels: readonly TenderLabel[], found: readonly ExtractedRequirement[]): Matching {
  const labelPairs = labels.map((label) => bigrams(label.text));
  const foundPairs = found.map((extracted) => bigrams(extracted.text));
  const candidates: { label: number; extracted: number; score: number }[] = [];
  for (const [labelIndex, label] of labels.entries()) {
    for (const [foundIndex, extracted] of found.entries()) {
      const cover = coverage(labelPairs[labelIndex]!, label.page, foundPairs[foundIndex]!, extracted.source.page);
      if (cover) candidates.push({ label: labelIndex, extracted: foundIndex, score: cover.ofLabel * cover.ofExtraction });
    }
  }
  const ordered = [...candidates].sort((a, b) => b.score - a.score || a.label - b.label || a.extracted - b.extracted);
  const pairs = new Map<number, number>();
  const taken = new Set<number>();
  for (const candidate of ordered) {
    if (pairs.has(candidate.label) || taken.has(candidate.extracted)) continue;
    pairs.set(candidate.label, candidate.extracted);
    taken.add(candidate.extracted);
  }
  return { pairs, candidates: candidates.map(({ label, extracted }) => ({ label, extracted })) };
}

export interface TenderScore {
  mandatoryLabels: number;
  mandatoryLabelsFound: number;
  mandatoryExtracted: number;
  mandatoryExtractedRight: number;
  criteria: number;
  criteriaRightWeight: number;
  schedules: number;
  schedulesOwnRow: number;
  instructions: number;
  instructionsAsGaps: number;
  /** Lines naming what went wrong, for the test's output. */
  misses: string[];
}

export function emptyScore(): TenderScore {
  return { mandatoryLabels: 0, mandatoryLabelsFound: 0, mandatoryExtracted: 0, mandatoryExtractedRight: 0, criteria: 0, criteriaRightWeight: 0, schedules: 0, schedulesOwnRow: 0, instructions: 0, instructionsAsGaps: 0, misses: [] };
}

export function addScore(total: TenderScore, part: TenderScore): void {
  for (const key of Object.keys(total) as (keyof TenderScore)[]) {
    if (key === 'misses') total.misses.push(...part.misses);
    else total[key] += part[key];
  }
}

/** The requirements that would become a "no evidence" gap in a bid with no drafts and no library (api/bids/gaps.ts). */
function gapMaking(found: readonly ExtractedRequirement[]): Set<number> {
  const requirements = found.map((extracted, index) => ({ requirement_id: String(index), ref: extracted.ref, text: extracted.text, kind: extracted.kind, mandatory: extracted.mandatory, state: 'open' as const, weight: extracted.weight }));
  const gaps = deriveGaps({ requirements, drafts: [], library: [], today: '2026-01-01', closingDate: null, region: null });
  return new Set(gaps.filter((gap) => gap.kind === 'no_evidence' && gap.requirement_id !== null).map((gap) => Number(gap.requirement_id)));
}

const clip = (text: string) => text.replace(/\s+/g, ' ').slice(0, 110);

/**
 * One document's figures. Mandatory recall: mandatory labels matched by an extraction marked mandatory (of any
 * kind). Mandatory precision: extractions marked mandatory that are matched to a mandatory label. Criteria
 * with the right weight: criterion labels matched by a criterion whose weight equals the label's (both null
 * when the document prints none). Schedules one row each: schedule labels matched, one to one, by a schedule.
 * Instructions turned into gaps: instruction labels that any extraction making a gap matches.
 */
export function scoreDocument(truth: TenderTruth, found: readonly ExtractedRequirement[]): TenderScore {
  const score = emptyScore();
  const labels = truth.requirements;
  const { pairs, candidates } = matchRequirements(labels, found);
  const gaps = gapMaking(found);
  const name = truth.file;
  for (const [index, label] of labels.entries()) {
    const matchedIndex = pairs.get(index);
    const extracted = matchedIndex === undefined ? undefined : found[matchedIndex];
    const where = `${name} p${label.page}`;
    if (label.mandatory) {
      score.mandatoryLabels++;
      if (extracted?.mandatory) score.mandatoryLabelsFound++;
      else score.misses.push(`${where} mandatory ${label.kind} ${extracted ? `found as not mandatory ${extracted.kind}` : 'missed'}: ${clip(label.text)}`);
    }
    if (label.kind === 'criterion') {
      score.criteria++;
      if (extracted?.kind === 'criterion' && extracted.weight === label.weight) score.criteriaRightWeight++;
      else score.misses.push(`${where} criterion (weight ${label.weight}) ${extracted ? `found as ${extracted.kind} weight ${extracted.weight}` : 'missed'}: ${clip(label.text)}`);
    }
    if (label.kind === 'schedule') {
      score.schedules++;
      if (extracted?.kind === 'schedule') score.schedulesOwnRow++;
      else score.misses.push(`${where} schedule ${extracted ? `found as ${extracted.kind}` : 'not its own row'}: ${clip(label.text)}`);
    }
    if (label.kind === 'instruction') {
      score.instructions++;
      const gapMaker = candidates.find((candidate) => candidate.label === index && gaps.has(candidate.extracted));
      if (gapMaker) {
        score.instructionsAsGaps++;
        score.misses.push(`${where} instruction turned into a gap (${found[gapMaker.extracted]!.kind}): ${clip(label.text)}`);
      }
    }
  }
  const matchedLabelOf = new Map([...pairs].map(([label, extracted]) => [extracted, label]));
  for (const [index, extracted] of found.entries()) {
    if (!extracted.mandatory) continue;
    score.mandatoryExtracted++;
    const label = matchedLabelOf.get(index);
    if (label !== undefined && labels[label]!.mandatory) score.mandatoryExtractedRight++;
    else score.misses.push(`${name} p${extracted.source.page} extracted mandatory ${extracted.kind} ${label === undefined ? 'matching no label' : `for a label not mandatory (${labels[label]!.kind})`}: ${clip(extracted.text)}`);
  }
  return score;
}

export const ratio = (part: number, whole: number): number => (whole === 0 ? 1 : part / whole);
