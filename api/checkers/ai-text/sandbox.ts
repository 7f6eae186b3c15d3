import { SANDBOX_LIMITATIONS } from '../define-checker.ts';
import type { AiTextEstimate } from './result.ts';

/**
 * The sandbox reply of POST /v1/detect-ai-text (spec, Shared input conventions: Sandbox): a fixed, invented result shaped
 * exactly like a real one, the same for every request.
 */
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
    limitations: `${SANDBOX_LIMITATIONS} A real estimate quotes the AUROC and false-positive rate it was measured at; it is never a verdict on who wrote a text.`,
    abstention_reason: null,
    word_count: 412,
  };
}
