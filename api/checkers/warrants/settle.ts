import type { AnalysisOutcome } from '../_runner/pool.ts';
import type { IntakeDocument } from '../../documents/types.ts';
import { warrantAnalysis, type WarrantAnalysis, type WarrantBundle } from './bundle.ts';
import { warrantLinks } from './paths.ts';
import { warrantIdOf, type WarrantStore } from './store.ts';
import { INSPECTION_VERSION } from './version.ts';

export const WARRANT_LIMITATIONS =
  'A warrant lists forensic signals for a person to review; it is not a fraud verdict and not an automated decision. Benign ' +
  'structure (incremental saves from form filling, annotation or signing; linearisation; object streams) is common, and each ' +
  'signal says what it found and where so you can judge it. Nothing is checked with the issuer, and a clean result does not ' +
  'prove a document genuine: a file re-created from scratch after editing leaves few traces.';

/**
 * The warrant for an outcome, stored under its id: the analysis as the engine gave it, or, when the engine
 * stopped at a limit, an `error` warrant saying why (kept for its permalink, not reused, not counted).
 */
export async function settleWarrant(
  outcome: AnalysisOutcome<unknown>,
  document: IntakeDocument,
  now: Date,
  store: WarrantStore,
  publicUrl: string,
): Promise<{ reply: WarrantBundle; engineFailed: boolean }> {
  const parsed = outcome.ok ? warrantAnalysis.safeParse(outcome.result) : null;
  const analysis: WarrantAnalysis = parsed?.success ? parsed.data : engineFailure(document, outcome.ok ? `the engine's result did not match the warrant schema (${parsed!.error.issues[0]?.message}).` : outcome.detail);
  const engineFailed = !parsed?.success;
  const id = warrantIdOf(document.sha256);
  const bundle: WarrantBundle = {
    warrant_id: id,
    ...analysis,
    filename: document.filename,
    size_bytes: document.bytes.byteLength,
    inspected_at: now.toISOString(),
    engine_version: INSPECTION_VERSION,
    ...warrantLinks(publicUrl, id),
    limitations: WARRANT_LIMITATIONS,
  };
  await store.save(bundle, !engineFailed);
  return { reply: bundle, engineFailed };
}

function engineFailure(document: IntakeDocument, detail: string): WarrantAnalysis {
  return {
    inspection_version: INSPECTION_VERSION,
    file_kind: document.kind === 'image' ? 'image' : 'pdf',
    sha256: document.sha256,
    risk_band: 'error',
    inspection_quality: 'failed',
    recommended_action: 'Review the file by hand in a viewer you trust. Inspecting it again may finish; nothing was counted against your allowance.',
    summary: {
      headline: `The inspection could not finish: ${detail}`,
      counts: { tampering: 0, structure: 0, metadata: 0, arithmetic: 0 },
      band_rule: 'error: the engine stopped before it finished, so no signal could be weighed.',
      pages: null,
      revisions: null,
      producer: null,
      creator: null,
    },
    signals: [],
  };
}
