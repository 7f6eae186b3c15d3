import { SANDBOX_LIMITATIONS } from '../define-checker.ts';
import type { AdverseMediaResult } from './result.ts';

/**
 * The sandbox reply of POST /v1/adverse-media (spec, Shared input conventions: Sandbox): a fixed, invented result shaped
 * exactly like a real one, the same for every request.
 */
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
    limitations: `${SANDBOX_LIMITATIONS} Lists of politically exposed persons (PEPs) are not screened. A real screening names the sanctions lists and news provider that answered; it is screening for a person to review, not a finding about the subject.`,
  };
}
