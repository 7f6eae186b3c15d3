import { SANDBOX_LIMITATIONS } from '../define-checker.ts';
import type { PackResult } from './result.ts';

/**
 * The sandbox reply of POST /v1/check-pack (spec, Shared input conventions: Sandbox): a fixed, invented result shaped
 * exactly like a real one, the same for every request.
 */
export function packSandboxReply(): PackResult {
  return {
    scheme: { id: 'rental_application', name: 'Rental application' },
    complete: false,
    slots: [
      { key: 'photo_id', label: 'Photo identification', optional: false, satisfied: true, matched: 'licence.png' },
      { key: 'income', label: 'Proof of income', optional: false, satisfied: true, matched: 'payslip-june.pdf' },
      { key: 'rental_history', label: 'Rental history or reference', optional: false, satisfied: false, matched: null },
    ],
    missing: ['rental_history'],
    documents: [
      { filename: 'licence.png', classified_type: 'australian_driver_licence', confidence: 0.93 },
      { filename: 'payslip-june.pdf', classified_type: 'payslip', confidence: 0.97 },
      { filename: 'holiday.jpg', classified_type: 'unrecognised', confidence: 0.2 },
    ],
    unmatched_documents: [{ filename: 'holiday.jpg', classified_type: 'unrecognised', reason: 'No slot of this pack takes this kind of document.' }],
    flags: [],
    limitations: `${SANDBOX_LIMITATIONS} A real pack check classifies each document from its first page; it says whether a slot is filled, never whether a document is genuine.`,
  };
}
