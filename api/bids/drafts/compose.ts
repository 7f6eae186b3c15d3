import type { ChatMessage, ChatModel } from '../../providers/chat-model.ts';
import { citationLabel, type Citation, type RetrievedPassage } from './retrieval.ts';

/** A passage a draft cites: its number in the draft (`[1]`), where it came from and the passage itself. */
export interface DraftCitation extends Citation {
  n: number;
  excerpt: string;
  score: number;
}

/** A draft as recompute writes it (a person's draft is stored as `person` by PATCH, never by this). */
export interface ComposedDraft {
  text: string;
  origin: 'assembled' | 'model';
  /** Why the draft reads as it does, in a sentence a person understands. */
  note: string;
  citations: DraftCitation[];
  /** The model that wrote it, or null. */
  model: string | null;
  /**
   * Why the model's reply was not kept as the draft (it cited no passage, or one it was not given), so the
   * requirement stays undrafted; null otherwise.
   */
  undrafted: string | null;
}

const NOTHING_FOUND =
  "Nothing in the organisation's profile, library documents or earlier bids answers this requirement yet: write the response here, or add a document that covers it to the library and recompute.";

const INSTRUCTIONS =
  'You draft one answer in a response to a government tender. Answer the requirement using only the numbered passages, ' +
  'which come from the bidding organisation\'s own documents. Cite each passage you use with its number in square brackets, ' +
  'like [1]. Do not invent facts, figures, names or certificates that are not in the passages; where the passages do not ' +
  'cover part of the requirement, say so in one sentence. Write in plain prose, in the first person plural, without a heading.';

/**
 * The messages sent to the model: fixed instructions, then the requirement and the retrieved passages and
 * nothing else (no organisation name, file names or other bid details leave the server beyond these).
 */
export function draftMessages(requirementText: string, passages: readonly RetrievedPassage[]): ChatMessage[] {
  const numbered = passages.map((passage, index) => `[${index + 1}] ${passage.text}`).join('\n\n');
  return [
    { role: 'system', content: INSTRUCTIONS },
    { role: 'user', content: `Requirement:\n${requirementText}\n\nPassages:\n${numbered}` },
  ];
}

/**
 * The passage numbers a reply cites: every `[n]` marker, and each number of a list such as `[1, 3]`.
 */
export function citedNumbers(reply: string): number[] {
  const cited = new Set<number>();
  for (const [, list] of reply.matchAll(/\[(\d+(?:\s*[,;]\s*\d+)*)\]/g)) {
    for (const number of list!.split(/[,;]/)) cited.add(Number(number.trim()));
  }
  return [...cited].sort((a, b) => a - b);
}

/**
 * The draft of one requirement from its retrieved passages: the model's answer when one is configured and
 * answers; otherwise the passages themselves, numbered with their sources, and a note saying why
 * (`withoutModel` gives that reason when the model is not to be asked, e.g. a person declined it).
 * A model's draft keeps as citations only the passages its `[n]` markers select: a reply that cites none,
 * or cites a number it was not given, is not kept, and the requirement stays undrafted with the reason.
 */
export async function composeDraft(requirementText: string, passages: readonly RetrievedPassage[], model: ChatModel, withoutModel?: string): Promise<ComposedDraft> {
  const citations = passages.map(({ text, citation, score }, index): DraftCitation => ({ ...citation, n: index + 1, excerpt: text, score }));
  if (passages.length === 0) return { text: NOTHING_FOUND, origin: 'assembled', note: 'No passage answers this requirement.', citations, model: null, undrafted: null };
  const assembled = passages.map((passage, index) => `[${index + 1}] ${passage.text}\n(Source: ${citationLabel(passage.citation)})`).join('\n\n');
  const answer = withoutModel === undefined ? await model.complete(draftMessages(requirementText, passages)) : null;
  if (answer?.ok) {
    const cited = citedNumbers(answer.value);
    const unknown = cited.filter((n) => n < 1 || n > passages.length);
    const undrafted =
      cited.length === 0
        ? `The language model ${model.model} answered without citing any of the ${passages.length} passages it was given, so its reply is not used: write the response here, or recompute to ask again.`
        : unknown.length > 0
          ? `The language model ${model.model} cited ${unknown.map((n) => `[${n}]`).join(', ')}, but was given only ${passages.length} passage${passages.length === 1 ? '' : 's'}, so its reply is not used: write the response here, or recompute to ask again.`
          : null;
    if (undrafted !== null) return { text: undrafted, origin: 'model', note: undrafted, citations: [], model: model.model, undrafted };
    const kept = citations.filter((citation) => cited.includes(citation.n));
    return {
      text: answer.value,
      origin: 'model',
      note: `Written by the language model ${model.model} from the ${plural(kept.length, 'passage')} it cites; check it before use.`,
      citations: kept,
      model: model.model,
      undrafted: null,
    };
  }
  let why = `${withoutModel}, so this draft is the retrieved passages as written, each with its source.`;
  if (answer !== null && !answer.ok) {
    why =
      answer.reason === 'not_configured'
        ? 'No language model is configured on this server, so this draft is the retrieved passages as written, each with its source.'
        : `The language model could not write this draft (${answer.detail}), so it is the retrieved passages as written, each with its source.`;
  }
  return { text: `${why}\n\n${assembled}`, origin: 'assembled', note: why, citations, model: null, undrafted: null };
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
