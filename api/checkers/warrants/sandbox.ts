import { SANDBOX_LIMITATIONS } from '../define-checker.ts';
import type { WarrantBundle } from './bundle.ts';
import { warrantLinks } from './paths.ts';

/**
 * The sandbox reply of POST /v1/warrants (spec, Shared input conventions: Sandbox): a fixed, invented result shaped
 * exactly like a real one, the same for every request.
 */
const SANDBOX_SHA256 = '5a17b0a1c0ffee00d15ea5e5ca1ab1e5eed5b0a710ad5a1e5ca1ab1e0ddba11e';

export function warrantSandboxReply(publicUrl: string): WarrantBundle {
  const warrantId = `warrant_${SANDBOX_SHA256.slice(0, 16)}`;
  return {
    warrant_id: warrantId,
    inspection_version: 'sandbox',
    engine_version: 'sandbox',
    file_kind: 'pdf',
    sha256: SANDBOX_SHA256,
    filename: 'invoice-0042.pdf',
    size_bytes: 48_213,
    inspected_at: '2026-06-10T02:00:00.000Z',
    risk_band: 'medium',
    inspection_quality: 'full',
    recommended_action: 'Ask the sender for the original file, and compare the total on page 1 with the invoice in your own records.',
    summary: {
      headline: 'Saved twice; the second save changed text on page 1.',
      counts: { tampering: 1, structure: 1, metadata: 1, arithmetic: 0 },
      band_rule: 'medium: a later revision changed page text, with no signature covering it.',
      pages: 1,
      revisions: 2,
      producer: 'Microsoft: Print To PDF',
      creator: 'Microsoft Word',
    },
    signals: [
      { code: 'incremental_update', group: 'structure', severity: 'info', title: 'Saved more than once', found: 'The file holds 2 revisions: the original and one incremental update.', where: { byte_offset: 41_877, revision: 1 } },
      { code: 'page_text_changed', group: 'tampering', severity: 'medium', title: 'Page text changed in a later revision', found: 'Revision 1 replaced the content stream of page 1; the total line differs from revision 0.', where: { object: '12 0 R', page: 1, revision: 1 } },
      { code: 'moddate_after_creation', group: 'metadata', severity: 'low', title: 'Modified after creation', found: 'ModDate 2026-06-04 is two days after CreationDate 2026-06-02.', where: { object: '1 0 R' } },
    ],
    ...warrantLinks(publicUrl, warrantId),
    limitations: `${SANDBOX_LIMITATIONS} A warrant lists signals for a person to review; it is not a fraud verdict.`,
  };
}
