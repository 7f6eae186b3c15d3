import { SANDBOX_LIMITATIONS } from '../define-checker.ts';
import type { FactCheckResult } from './result.ts';

/**
 * The sandbox reply of POST /v1/verify-references (spec, Shared input conventions: Sandbox): a fixed, invented result shaped
 * exactly like a real one, the same for every request.
 */
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
    limitations: `${SANDBOX_LIMITATIONS} A real check tries each link once, resolves DOIs on Crossref and recomputes only the arithmetic the document writes out.`,
    permalink: `${publicUrl}/v1/fact-checks/fc_0123456789abcdef`,
  };
}
