import type { AiTextEstimate } from '../checkers/ai-text/result.ts';
import type { ExtractionResult } from '../checkers/extract/result.ts';
import type { IdentityResult } from '../checkers/identity/result.ts';
import type { PackResult } from '../checkers/pack/result.ts';
import type { WarrantBundle } from '../checkers/warrants/bundle.ts';

/**
 * The sandbox replies of the document checkers (spec, Shared input conventions: Sandbox): fixed, invented
 * results shaped exactly like real ones, so a client can be built against them without a document, an
 * allowance or a key. The sandbox adds `sandbox: true`. Nothing here reads the request: the same call always
 * gets the same reply.
 */

const LIMITATIONS_SANDBOX = 'Sandbox reply: an invented result showing the shape of a real one. No document was read.';

export function identitySandboxReply(): IdentityResult {
  return {
    scheme: { id: 'afp_100_point', name: 'AFP National Police Check: 100 points', source: 'Australian Federal Police, National Police Check 100 point checklist' },
    established: true,
    rule: 'points_accumulation',
    points: 135,
    target: 100,
    primaries: 1,
    satisfied_path: null,
    reason: 'One primary document (70) and two secondary documents (40 and 25) give 135 points of the 100 needed, with name, photo and address shown.',
    documents: [
      { filename: 'passport.jpg', classified_type: 'australian_passport', shows: ['N', 'P', 'S'], points: 70, counts: true, note: 'Primary document: 70 points.' },
      { filename: 'licence.png', classified_type: 'australian_driver_licence', shows: ['N', 'P', 'A', 'S'], points: 40, counts: true, note: 'First secondary document: 40 points.' },
      { filename: 'power-bill.pdf', classified_type: 'utility_bill', shows: ['N', 'A'], points: 25, counts: true, note: 'Other document: 25 points; it must be under 12 months old.' },
    ],
    limitations: `${LIMITATIONS_SANDBOX} A real check classifies documents from their content and counts points; it never verifies that a document is genuine.`,
  };
}

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
    limitations: `${LIMITATIONS_SANDBOX} A real pack check classifies each document from its first page; it says whether a slot is filled, never whether a document is genuine.`,
  };
}

export function extractSandboxReply(): ExtractionResult {
  return {
    mode: 'template',
    document_type: 'tax_invoice',
    fields: {
      supplier_name: { value: 'Ridgeline Civil Pty Ltd', confidence: 0.98, page: 1 },
      supplier_abn: { value: '51 824 753 556', confidence: 0.99, page: 1 },
      invoice_number: { value: 'INV-0042', confidence: 0.99, page: 1 },
      invoice_date: { value: '2026-06-02', confidence: 0.97, page: 1 },
      gst: { value: 113.64, confidence: 0.95, page: 1 },
      total: { value: 1250, confidence: 0.98, page: 1 },
    },
    not_found: ['buyer_abn'],
    pages_read: 1,
    page_limit: 10,
    page_count: 1,
    capabilities_used: ['text_layer'],
    limitations: `${LIMITATIONS_SANDBOX} Extraction is not verification: values are read from the document as it stands, and the document is never stored.`,
  };
}

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
    permalink: `${publicUrl}/v1/warrants/${warrantId}`,
    report_pdf: `${publicUrl}/v1/warrants/${warrantId}/report.pdf`,
    limitations: `${LIMITATIONS_SANDBOX} A warrant lists signals for a person to review; it is not a fraud verdict.`,
  };
}

export function aiTextSandboxReply(): AiTextEstimate {
  return {
    applicable: true,
    probability: 0.81,
    lean: 'ai',
    tells: [
      'excess style vocabulary: 4 uses ("pivotal", "seamless", "comprehensive", "crucial"); basis: Kobak et al., Science Advances 2025 (excess vocabulary). First at "Our pivotal new platform offers a seamless and comprehensive experience."',
      'negative parallelism ("not just X, but Y"), 1 in the text; basis: Wikipedia:Signs of AI writing. First at "It is not just a tool, but a partner in your growth."',
    ],
    reasoning: 'Probability 0.81 (lean ai) from stylometric features combined by a logistic regression fitted on labelled English passages. Strongest towards AI-written: stock phrases (9.1 per 1,000 words), variation of sentence length (burstiness) (0.28).',
    limitations: `${LIMITATIONS_SANDBOX} A real estimate quotes the AUROC and false-positive rate it was measured at; it is never a verdict on who wrote a text.`,
    abstention_reason: null,
    word_count: 412,
  };
}
