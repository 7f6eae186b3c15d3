import type { Signal, SignalSeverity } from './signal.ts';
import type { WarrantAnalysis } from './bundle.ts';

export type RiskBand = WarrantAnalysis['risk_band'];
export type InspectionQuality = WarrantAnalysis['inspection_quality'];

/**
 * The band rule, in the words every warrant carries. Structure (linearisation, object streams, incremental
 * saves, forms, signatures, scripts) says how a file was made, not that its content is false, so a
 * structure signal counts as medium at most; what a later save changed is weighed by what it changed.
 */
export const BAND_RULE =
  'error when the file could not be parsed; high when a tampering, metadata or arithmetic signal is high ' +
  '(page text changed after the first revision or after signing, an in-place text edit marker, a white box drawn over text, figures that do not add up, an embedded e-invoice the printed page contradicts); ' +
  'otherwise insufficient when too little could be read (encrypted, no text layer, held back by a limit); ' +
  'otherwise medium when any signal is medium (structure signals count at most medium, so linearisation, object streams and incremental saves from form filling, annotation or signing never make high); ' +
  'otherwise low.';

const rank: Record<SignalSeverity, number> = { info: 0, low: 1, medium: 2, high: 3 };

/** A signal's weight in the band: structure never weighs more than medium. */
function weight(signal: Signal): number {
  return signal.group === 'structure' ? Math.min(rank[signal.severity], rank.medium) : rank[signal.severity];
}

export interface BandDecision {
  band: RiskBand;
  rule: string;
  recommendedAction: string;
  headline: string;
}

export function decideBand(signals: Signal[], quality: InspectionQuality, failure: string | null): BandDecision {
  const high = signals.filter((signal) => weight(signal) === rank.high);
  const medium = signals.filter((signal) => weight(signal) === rank.medium);
  if (quality === 'failed') {
    return decision('error', `error: ${failure ?? 'the file could not be parsed'}.`, `The file could not be read (${failure ?? 'unparseable'}).`);
  }
  if (high.length > 0) return decision('high', `high: ${high.length} high signal(s): ${codes(high)}.`, headlineOf('High', high, signals));
  if (quality === 'minimal') return decision('insufficient', `insufficient: ${failure ?? 'too little of the file could be read'}; no high signal.`, `Too little could be read to inspect the file (${failure ?? 'little content'}).`);
  if (medium.length > 0) return decision('medium', `medium: ${medium.length} medium signal(s): ${codes(medium)}; none high.`, headlineOf('Medium', medium, signals));
  const low = signals.filter((signal) => weight(signal) === rank.low);
  return decision('low', `low: no signal above low (${signals.length} signal(s) in all).`, low.length === 0 ? 'Low: nothing found beyond how the file was saved.' : headlineOf('Low', low, signals));
}

const actions: Record<RiskBand, string> = {
  high: 'Do not rely on this document until its issuer confirms it: ask the issuer for the original file and check it at the places the high signals name.',
  medium: 'Look at the listed signals where they point and ask the sender how the file was produced before relying on it.',
  low: 'Nothing found calls for more than your usual checks; the signals describe how the file was saved.',
  insufficient: 'Too little of the file could be read to inspect it: ask for the original digital file, not a scan, photo or password-protected copy.',
  error: 'The file could not be read: ask the sender for a fresh copy of the original file.',
};

function decision(band: RiskBand, applied: string, headline: string): BandDecision {
  return { band, rule: `Rule: ${BAND_RULE} Applied: ${applied}`, recommendedAction: actions[band], headline };
}

function codes(signals: Signal[]): string {
  return [...new Set(signals.map((signal) => signal.code))].join(', ');
}

function headlineOf(label: string, leading: Signal[], all: Signal[]): string {
  const titles = [...new Set(leading.map((signal) => signal.title.toLowerCase()))].slice(0, 3);
  const others = all.length - leading.length;
  return `${label}: ${titles.join('; ') || 'minor signals'}${others > 0 ? ` (+${others} other signal${others === 1 ? '' : 's'})` : ''}.`;
}
