import type { IntakeDocument } from '../../documents/types.ts';
import type { DocumentClassification } from '../document-types.ts';
import type { FirstPageStore } from '../first-page-cache.ts';
import { failureSentence, type AnswerPlan } from './answer.ts';
import { cacheKey, type ContentCache } from './content-cache.ts';
import type { AnalysisOutcome } from './pool.ts';

export interface CachedAnalysis {
  /** The checker's name: its analysis in the pool and its results in the cache. */
  checker: string;
  documents: IntakeDocument[];
  /** Whether the reply shows file names (then they are part of the cache key). */
  namesShown: boolean;
  options: unknown;
  engineVersion: string;
  fresh: boolean;
  stream: boolean;
  now: Date;
  /**
   * For checkers that classify by page 1 (identity, pack): each document's stored page-1 classification is
   * handed to the analysis (none with `fresh`), and each classification it makes is kept.
   */
  firstPages?: FirstPageStore;
}

/**
 * Analyses running now for the content-cached checkers, by cache key: an identical request arriving meanwhile
 * waits for the running one (two hundred clients sending one invoice at once make one analysis, not a full queue).
 */
const inFlightByCache = new WeakMap<ContentCache, Map<string, Promise<AnalysisOutcome<unknown>>>>();

/**
 * The pool-lane plan of the checkers whose results live in the content-hash cache (extract, identity, pack),
 * for `answer`: a stored result answers unless `fresh`; a result is stored; an engine failure is 422 `{detail}`
 * (an `error` event when streamed), is not stored and does not count. Page-1 classifications (`firstPages`)
 * are kept per document whatever the outcome. For those checkers a result in which no document could be read
 * (each says why) is an engine failure too: answered as it stands, marked `Svc-Engine: failed`, not stored,
 * not counted.
 */
export async function cachedAnalysis(cache: ContentCache, plan: CachedAnalysis): Promise<AnswerPlan<object>> {
  const key = cacheKey({
    checker: plan.checker,
    documents: plan.documents.map((document) => (plan.namesShown ? { sha256: document.sha256, filename: document.filename } : { sha256: document.sha256 })),
    options: plan.options,
    engineVersion: plan.engineVersion,
  });
  const stored = plan.fresh ? undefined : (await cache.get(key) as object | undefined);
  const inFlight = inFlightByCache.get(cache) ?? new Map<string, Promise<AnalysisOutcome<unknown>>>();
  inFlightByCache.set(cache, inFlight);
  const inFlightKey = JSON.stringify(key);
  const firstPages = plan.firstPages;
  // Page-1 classifications handed to the job, and those it makes, kept when it settles (on the request's path, so a
  // store failure is the request's).
  const knownClassifications = firstPages === undefined || stored !== undefined ? undefined : plan.fresh ? new Map<string, DocumentClassification>() : await firstPages.known(plan.documents.map((document) => document.sha256));
  const newClassifications = new Map<string, DocumentClassification>();
  return {
    documents: plan.documents,
    now: plan.now,
    stream: plan.stream,
    stored,
    lane: {
      kind: 'pool',
      analysis: plan.checker,
      options: plan.options,
      heartbeat: 'working',
      ...(plan.fresh || stored !== undefined ? {} : { inFlight: () => inFlight.get(inFlightKey) }),
      onStarted: (outcome) => {
        inFlight.set(inFlightKey, outcome);
        void outcome.finally(() => inFlight.delete(inFlightKey));
      },
      ...(knownClassifications === undefined
        ? {}
        : {
            firstPages: knownClassifications,
            onFirstPageClassified: (sha256: string, classification: DocumentClassification) => newClassifications.set(sha256, classification),
          }),
      async settle(outcome) {
        // Kept even when the job then failed: a classification made before a time limit is as good as any.
        for (const [sha256, classification] of newClassifications) await firstPages?.keep(sha256, classification, plan.now);
        if (!outcome.ok) return { status: outcome.failure === 'refused' ? outcome.status : 422, detail: `${failureSentence(outcome.detail, 'analysed')} Nothing was counted against your allowance.` };
        // A checker that classifies by page 1 is told every page 1 it read: one told of none read no document at all
        // (each says why it could not be read), an engine failure, neither stored nor counted.
        const readNone = knownClassifications !== undefined && plan.documents.every((document) => !knownClassifications.has(document.sha256) && !newClassifications.has(document.sha256));
        if (readNone) return { reply: outcome.result as object, engineFailed: true };
        await cache.put(key, outcome.result, plan.now);
        return { reply: outcome.result as object, engineFailed: false };
      },
    },
  };
}
