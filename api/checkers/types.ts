import type { IntakeDocument } from '../documents/types.ts';
import type { FirstPage } from './first-page.ts';

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
   * Page-1 reads earlier requests made of these documents, by SHA-256 (api/checkers/first-page.ts): a
   * document sent again is classified from its stored read instead of being read again.
   */
  firstPages?: ReadonlyMap<string, FirstPage>;
  /** Told each page-1 read the analysis makes, so the route keeps it for the next request that sends the document. */
  firstPageRead?: (sha256: string, read: FirstPage) => void;
}

/** A checker analysis as the worker pool runs it: documents and checked options in, a JSON-able result out. */
export type Analysis<Options, Result> = (documents: IntakeDocument[], options: Options, context: AnalysisContext) => Promise<Result>;
