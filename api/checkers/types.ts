import type { IntakeDocument } from '../documents/types.ts';
import type { DocumentClassification } from './document-types.ts';

/**
 * What every checker analysis receives besides its documents. Analyses are pure functions of their inputs
 * (DESIGN §10): the clock comes in here and nothing inside reads the system clock, so the same bytes and
 * options give the same result and the content cache is sound.
 */
export interface AnalysisContext {
  /** ISO instant the call arrived; dates "in the future" are judged against it. */
  now: string;
  /** Progress for `?stream=1`: each call becomes an SSE heartbeat (`inspecting` for warrants, else `working`). */
  progress?: (stage: string) => void;
  /**
   * Page-1 classifications earlier requests made of these documents, by SHA-256 (api/checkers/first-page.ts):
   * a document sent again takes its stored classification instead of being read again.
   */
  firstPages?: ReadonlyMap<string, DocumentClassification>;
  /** Told each page-1 classification the analysis makes, so the route keeps it for the next request that sends the document. */
  firstPageClassified?: (sha256: string, classification: DocumentClassification) => void;
}

/** A checker analysis as the worker pool runs it: documents and checked options in, a JSON-able result out. */
export type Analysis<Options, Result> = (documents: IntakeDocument[], options: Options, context: AnalysisContext) => Promise<Result>;
