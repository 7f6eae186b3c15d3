import type { AdverseMediaResult } from '../checkers/adverse-media/result.ts';
import type { AiTextEstimate } from '../checkers/ai-text/result.ts';
import type { ExtractionResult } from '../checkers/extract/result.ts';
import type { IdentityResult } from '../checkers/identity/result.ts';
import { PARAPHRASE_NOTE } from '../checkers/overlap/analyse.ts';
import type { OverlapResult } from '../checkers/overlap/result.ts';
import type { PackResult } from '../checkers/pack/result.ts';
import type { FactCheckResult } from '../checkers/references/result.ts';
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
      {
        filename: 'passport.jpg',
        classified_type: 'australian_passport',
        shows: ['N', 'P', 'S'],
        points: 70,
        counts: true,
        note: 'Primary document: 70 points; machine-readable zone (TD3) read: every check digit verifies.',
        mrz: {
          format: 'TD3',
          document_code: 'P<',
          issuing_state: 'AUS',
          expires: '2032-06-15',
          checks: (['document_number', 'birth_date', 'expiry_date', 'personal_number', 'composite'] as const).map((name) => ({ name, valid: true })),
          valid: true,
          corrections: [],
          adjustments: [],
          printed_agrees: { document_number: true, date_of_birth: true, expiry: true },
          where: 'page 1, pixels 42,604 1180x146',
        },
      },
      { filename: 'licence.png', classified_type: 'australian_driver_licence', shows: ['N', 'P', 'A', 'S'], points: 40, counts: true, note: 'First secondary document: 40 points.', mrz: null },
      { filename: 'power-bill.pdf', classified_type: 'utility_bill', shows: ['N', 'A'], points: 25, counts: true, note: 'Other document: 25 points; it must be under 12 months old.', mrz: null },
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

export function adverseMediaSandboxReply(): AdverseMediaResult {
  return {
    subject: { name: 'Alex Samplewood', source: 'request', country: 'AU' },
    sanctions: { candidates: [], strong_matches: 0, possible_matches: 0, common_name_ambiguity: false },
    adverse_media: {
      matched_hits: 1,
      possible_hits: 0,
      excluded_same_name: 1,
      categories: { fraud: 1 },
      hits: [
        {
          url: 'https://news.example/ridgeline-director-charged',
          title: 'Ridgeline Civil director charged over invoices',
          source: 'news.example',
          match: 'name_and_details',
          category: 'fraud',
          severity: 'high',
          evidence: 'Ridgeline Civil Pty Ltd director Alex Samplewood, 48, was charged with obtaining a financial advantage by deception.',
        },
      ],
      excluded: [{ url: 'https://news.example/ohio-teacher', title: 'Ohio teacher charged with assault', reason: "The article gives Alex Samplewood's age as 29; the subject was about 48 then." }],
    },
    risk_flag: 'high',
    headline: 'Alex Samplewood: 1 adverse news article (1 matched on details, 0 possible). 1 article about another person of the same name was set aside.',
    limitations: `${LIMITATIONS_SANDBOX} Lists of politically exposed persons (PEPs) are not screened. A real screening names the sanctions lists and news provider that answered; it is screening for a person to review, not a finding about the subject.`,
  };
}

export function referencesSandboxReply(publicUrl: string): FactCheckResult {
  const at = (page: number, start: number, end: number) => ({ document: 0, filename: 'council-report.pdf', page, start_char: start, end_char: end });
  const none = { http_status: null, final_url: null, archived_copy: null, registered: null, title_similarity: null, cited_in_text: null };
  return {
    check_id: 'fc_0123456789abcdef',
    summary: {
      headline: '3 links (1 live, 1 archived, 1 unreachable now); 1 DOI (1 with a different registered title); 1 of 2 calculations do not add up.',
      references: 4,
      urls: { live: 1, archived: 1, unreachable_now: 1 },
      dois: { title_mismatch: 1 },
      citations: {},
      claims: {},
      internal_consistency: { checked: 2, inconsistent: 1 },
    },
    references: [
      { reference_id: 'ref_1', kind: 'url', as_written: 'https://www.example.gov.au/roads/maintenance-plan', location: at(2, 118, 167), url: 'https://www.example.gov.au/roads/maintenance-plan', doi: null, claimed_title: null, year: null, status: 'live', evidence: ['GET answered HTTP 200, titled “Road maintenance plan 2024–2028”.'], ...none, http_status: 200, final_url: 'https://www.example.gov.au/roads/maintenance-plan' },
      { reference_id: 'ref_2', kind: 'url', as_written: 'https://www.example.gov.au/news/2019/bridge-funding', location: at(3, 40, 91), url: 'https://www.example.gov.au/news/2019/bridge-funding', doi: null, claimed_title: null, year: null, status: 'archived', evidence: ['GET answered HTTP 404.', 'The Wayback Machine holds a copy captured 2019-08-14.'], ...none, http_status: 404, final_url: 'https://www.example.gov.au/news/2019/bridge-funding', archived_copy: { url: 'http://web.archive.org/web/20190814021500/https://www.example.gov.au/news/2019/bridge-funding', captured_at: '2019-08-14T02:15:00Z' } },
      { reference_id: 'ref_3', kind: 'url', as_written: 'https://data.example.org/traffic-counts', location: at(3, 210, 249), url: 'https://data.example.org/traffic-counts', doi: null, claimed_title: null, year: null, status: 'unreachable_now', evidence: ['No answer on one attempt: https://data.example.org/traffic-counts did not answer in time. One failed attempt is not proof the page is gone.', 'The Wayback Machine holds no copy that answered HTTP 200.'], ...none },
      { reference_id: 'ref_4', kind: 'doi', as_written: '10.5555/12345678', location: at(5, 302, 318), url: 'https://doi.org/10.5555/12345678', doi: '10.5555/12345678', claimed_title: 'Pavement life under heavy vehicle loads', year: 2018, status: 'title_mismatch', evidence: ['The document cites “Pavement life under heavy vehicle loads”; Crossref registers 10.5555/12345678 as “Toward a unified theory of high-energy metaphysics” (title similarity 0.31).'], ...none, registered: { doi: '10.5555/12345678', title: 'Toward a unified theory of high-energy metaphysics', year: 2008, container: 'Journal of Psychoceramics', first_author: 'Carberry' }, title_similarity: 0.31 },
    ],
    claims: [],
    internal_consistency: [
      { kind: 'table_total', statement: 'Resealing 1,200 Drainage 850 Signage 300 Total 2,450', numbers_used: [1200, 850, 300], stated: 2450, recomputed: 2350, tolerance: 1.5, consistent: false, explanation: 'Summed the column over 3 rows (Resealing, Drainage, Signage) against “Total”.', location: at(4, 12, 80) },
      { kind: 'percentage', statement: 'Of the 40 bridges inspected, 6 of 40 (15%) needed repair.', numbers_used: [6, 40], stated: 15, recomputed: 15, tolerance: 1, consistent: true, explanation: 'Recomputed 6 ÷ 40 × 100.', location: at(4, 95, 150) },
    ],
    deep: false,
    checked_at: '2026-06-10T02:00:00.000Z',
    limitations: `${LIMITATIONS_SANDBOX} A real check tries each link once, resolves DOIs on Crossref and recomputes only the arithmetic the document writes out.`,
    permalink: `${publicUrl}/v1/fact-checks/fc_0123456789abcdef`,
  };
}

export function overlapSandboxReply(): OverlapResult {
  const first = 'Local governments are responsible for around a third of public infrastructure assets in Australia, including roads, bridges, footpaths, drainage and community buildings, yet they collect only a small share of total tax revenue';
  const second = 'Renewal backlogs grow when depreciation is funded from rates but the cash is redirected to new assets with higher community visibility';
  return {
    outcome: 'assessed',
    overlap_band: 'low',
    overlap_ratio: 0.042,
    matches: [
      { tier: 'exact', source_url: 'https://infrastructure-review.example/local-roads', matched_quote: first, source_quote: first, passage_span: { start_char: 412, end_char: 412 + first.length }, source_span: { start_char: 1_877, end_char: 1_877 + first.length }, tokens_matched: 33 },
      { tier: 'exact', source_url: 'https://council-finance.example/asset-renewal', matched_quote: second, source_quote: second, passage_span: { start_char: 5_230, end_char: 5_230 + second.length }, source_span: { start_char: 640, end_char: 640 + second.length }, tokens_matched: 21 },
    ],
    possible_paraphrases: [],
    paraphrase_checked: false,
    note: PARAPHRASE_NOTE,
    top_sources: [
      { url: 'https://infrastructure-review.example/local-roads', host: 'infrastructure-review.example', title: 'Funding local roads', tokens_matched: 33, share: 0.026, matches: 1 },
      { url: 'https://council-finance.example/asset-renewal', host: 'council-finance.example', title: 'Why renewal backlogs grow', tokens_matched: 21, share: 0.016, matches: 1 },
    ],
    headline: "4% of the document's words (54 of 1280, in 2 passages) appear word for word on 2 of the 11 web pages compared; most on infrastructure-review.example.",
    coverage: {
      words: 1_280, search_provider: 'Brave Search API', queries_sent: 4, queries_answered: 4, search_failures: [], pages_compared: 11,
      pages_not_read: [{ url: 'https://paywalled.example/report', status: 'unreachable now', detail: 'paywalled.example did not answer within 15 s; try again later.' }],
      excluded_host: null,
    },
    limitations: `${LIMITATIONS_SANDBOX} A real check reports only passages found word for word on the pages a web search returned; overlap is not plagiarism, and a person decides what a match means.`,
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
