import { SANDBOX_LIMITATIONS } from '../define-checker.ts';
import { PARAPHRASE_NOTE } from './analyse.ts';
import type { OverlapResult } from './result.ts';

/**
 * The sandbox reply of POST /v1/check-source-overlap (spec, Shared input conventions: Sandbox): a fixed, invented result shaped
 * exactly like a real one, the same for every request.
 */
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
    limitations: `${SANDBOX_LIMITATIONS} A real check reports only passages found word for word on the pages a web search returned; overlap is not plagiarism, and a person decides what a match means.`,
  };
}
