import type { Analysis } from '../types.ts';
import type { Signal } from './signal.ts';
import type { WarrantAnalysis } from './bundle.ts';
import { decideBand, type InspectionQuality } from './band.ts';
import { imageSignals } from './image.ts';
import { inspectPdf } from './pdf-inspect.ts';
import { INSPECTION_VERSION } from './version.ts';

/**
 * The forensic inspection of one document (a PDF or an image): signals, then the band by the written rule.
 * Nothing escapes as an exception: a file that cannot be read becomes an `error` result saying why.
 */
export const analyseWarrant: Analysis<Record<string, never>, WarrantAnalysis> = async (documents, _options, context) => {
  const document = documents[0];
  if (!document) throw new Error('analyseWarrant needs one document');
  const fileKind = document.kind === 'image' ? 'image' : 'pdf';
  let signals: Signal[] = [];
  let quality: InspectionQuality = 'failed';
  let shortfall: string | null = null;
  let pages: number | null = null;
  let revisions: number | null = null;
  let producer: string | null = null;
  let creator: string | null = null;
  try {
    if (fileKind === 'image') {
      const image = await imageSignals(document.bytes, document.mime, context);
      signals = image.signals;
      quality = image.readable ? (image.note ? 'partial' : 'full') : 'failed';
      shortfall = image.note;
      pages = image.readable ? 1 : null;
    } else {
      const pdf = await inspectPdf(document.bytes, context);
      ({ signals, quality, shortfall, pages, revisions } = pdf);
      ({ producer, creator } = pdf.metadata);
    }
  } catch (error) {
    quality = 'failed';
    shortfall = `the inspection stopped: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
  const band = decideBand(signals, quality, shortfall);
  const counts = { tampering: 0, structure: 0, metadata: 0, arithmetic: 0 };
  for (const signal of signals) counts[signal.group] += 1;
  return {
    inspection_version: INSPECTION_VERSION,
    file_kind: fileKind,
    sha256: document.sha256,
    risk_band: band.band,
    inspection_quality: quality,
    recommended_action: band.recommendedAction,
    summary: { headline: band.headline, counts, band_rule: band.rule, pages, revisions, producer, creator },
    signals: signals.toSorted((a, b) => severityOrder(b) - severityOrder(a)),
  };
};

function severityOrder(signal: Signal): number {
  return { info: 0, low: 1, medium: 2, high: 3 }[signal.severity];
}
