import type { Judged } from '../_runner/answer.ts';
import type { ReadTextOptions, ReadTextResult } from '../read-text.ts';
import { estimateAiText } from './estimate.ts';
import type { AiTextModel } from './model.ts';
import type { AiTextEstimate } from './result.ts';

/**
 * How the document is read for the estimate: without OCR, since text read from a picture is the OCR
 * engine's and the estimate abstains on scans anyway; the first 30 pages are plenty of prose.
 */
export const AI_TEXT_READING: ReadTextOptions = { ocr: false, max_pages: 30 };

/** A PDF page with fewer visible characters than this has no text layer to speak of. */
const MIN_PAGE_CHARACTERS = 20;

/**
 * The judging step of POST /v1/detect-ai-text: the estimate of the read text. It asks nothing of the outside
 * world. An answer counts against the weekly allowance; an abstention does not (spec, Limits).
 */
export function judgeAiText(reading: ReadTextResult, model: AiTextModel): Judged<AiTextEstimate> {
  const document = reading.documents[0]!;
  const emptyPages = document.pages.filter((page) => page.text.replace(/\s/g, '').length < MIN_PAGE_CHARACTERS).length;
  // A scan: a picture, text that came from OCR, or a PDF whose pages are mostly without a text layer.
  const scanned = document.kind === 'image' || document.ocr_used || (document.kind === 'pdf' && emptyPages * 2 > document.pages.length);
  const estimate = estimateAiText(document.pages.map((page) => page.text).join('\n\n'), scanned, model);
  return { reply: estimate, counts: estimate.applicable };
}
