// A bid run told in words for the bid page: the step it is on (the API names steps for programs:
// api/bids/README.md), its state, and the kinds of finding and action, so no internal name reaches the reader.
import type { RunState } from './bids-api.ts';

const STEP_WORDS: Record<string, string> = {
  read_files: "Reading the bid's files",
  pack_offer: "Checking whether the tender's portal publishes its documents",
  read_fetched_files: "Reading the documents fetched from the portal",
  extract_requirements: 'Reading the requirements from the files',
  find_questions: 'Looking for questions to ask the buyer',
  model_choice: 'Choosing how the drafts are worded',
  mark_drafted: 'Marking the requirements that have a draft',
  gaps: 'Finding the gaps',
  plan: 'Planning the work back from closing',
  compliance: 'Checking the response against the tender',
};

const ACTION_STEP_WORDS: Record<string, string> = {
  fetch_pack: "fetching the tender's documents from the portal",
  send_clarification: 'emailing the questions to the buyer',
  use_model: 'sending the requirements to the language model',
  sign_off: 'leaving the sign-off for a person',
};

/**
 * The step in words; `requirementName` names a requirement by its id (a draft step is one requirement), or
 * null when the page does not know it.
 */
export function stepWords(step: string | null, requirementName: (requirementId: string) => string | null): string {
  if (step === null) return 'Waiting for a worker to start';
  const [kind, subject = ''] = step.split(/:(.*)/s);
  if (kind === 'draft') {
    const name = requirementName(subject);
    return name === null ? 'Drafting an answer' : `Drafting the answer to ${name}`;
  }
  if (kind === 'raise') return subject === 'sign_off' ? 'Leaving the sign-off for a person' : 'Asking a person to decide';
  if (kind === 'execute') return `Doing what was approved: ${ACTION_STEP_WORDS[subject] ?? 'the approved action'}`;
  if (kind === 'message') return 'Posting to the thread';
  return STEP_WORDS[step] ?? 'Working';
}

const STATE_WORDS: Record<RunState, string> = {
  queued: 'is queued to start',
  running: 'is running',
  waiting: 'waits for your decision',
  completed: 'finished',
  stopped: 'was stopped',
  failed: 'failed',
};

export function runStateWords(state: RunState): string {
  return STATE_WORDS[state];
}

export const ENDED_RUN_STATES: readonly RunState[] = ['completed', 'stopped', 'failed'];

/** The event kinds after which a run's stream closes. */
export const FINAL_EVENTS = ['run_completed', 'run_stopped', 'run_failed'] as const;

/** Every kind of run event (api/bids/README.md, Events), in the order a run usually tells them. */
export const RUN_EVENT_KINDS = [
  'run_queued', 'run_started', 'run_resumed', 'step_started', 'step_completed', 'step_retrying', 'action_raised',
  'run_waiting', 'action_decided', 'finding', 'message', ...FINAL_EVENTS,
] as const;

const ACTION_KIND_WORDS: Record<string, string> = {
  fetch_pack: "fetch the tender's documents from the portal",
  send_clarification: 'email the questions to the buyer',
  use_model: 'send the requirements to the language model',
  sign_off: 'sign the response off',
};

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

/** One line of the run's log for one event, in words (`requirementName` as for `stepWords`). */
export function eventWords(kind: string, data: Record<string, unknown>, requirementName: (requirementId: string) => string | null): string {
  const step = typeof data['step'] === 'string' ? data['step'] : null;
  switch (kind) {
    case 'run_queued': return 'Queued for a worker.';
    case 'run_started': return 'Started.';
    case 'run_resumed': return data['taken_over'] === true ? 'Taken up again by another worker, after the one running it stopped.' : 'Going on.';
    case 'step_started': return `${stepWords(step, requirementName)}${data['again'] === true ? ', again: the last try was cut off' : ''}.`;
    case 'step_completed': return `Done: ${lowerFirst(stepWords(step, requirementName))}.`;
    case 'step_retrying': return `That failed (${String(data['error'])}); it is tried again shortly.`;
    case 'action_raised': return data['waits'] === true
      ? `Asks you to decide: ${ACTION_KIND_WORDS[String(data['kind'])] ?? 'an action'}.`
      : `Leaves for you: ${ACTION_KIND_WORDS[String(data['kind'])] ?? 'an action'}.`;
    case 'run_waiting': return 'Waiting for your decision.';
    case 'action_decided': return data['decision'] === 'approve' ? 'Approved by a person.' : 'Declined by a person.';
    case 'finding': return `Found: ${lowerFirst(findingKindWords(String(data['kind'])))}.`;
    case 'message': return 'Posted to the thread.';
    case 'run_completed': return 'Finished.';
    case 'run_stopped': return 'Stopped.';
    case 'run_failed': return `Failed: ${String(data['error'])}`;
    default: return 'Something else happened.';
  }
}

/** Why a run failed, in words: the step it was on and the last error. */
export function failureWords(step: string | null, error: string | null, requirementName: (requirementId: string) => string | null): string {
  const where = step === null ? 'before its first step' : `while ${lowerFirst(stepWords(step, requirementName))}`;
  return `The run failed ${where}, and gave up. The last error: ${error ?? 'none was recorded'}`;
}

/** What a person can do about a failed run. */
export const FAILED_RUN_NEXT =
  'Nothing more happens in this run. To try again, press “Prepare this bid”: a new run starts from the beginning and asks you again before anything is sent. If the error names something you can fix first, fix it.';

const FINDING_WORDS: Record<string, string> = {
  mandatory_unanswered: 'A mandatory requirement has no answer',
  length_limit: 'Over a page or word limit',
  returnable_missing: 'A form to return is missing',
  date_outside_window: 'A date outside the tender’s window',
};

export function findingKindWords(kind: string): string {
  return FINDING_WORDS[kind] ?? 'Finding';
}

const FINDING_TODO: Record<string, string> = {
  mandatory_unanswered: 'What to do: write its answer in the draft under Requirements and drafts, or mark the requirement met or not applicable.',
  length_limit: 'What to do: shorten the answer until it fits the limit.',
  returnable_missing: 'What to do: upload the completed form to the tender files, or mark the requirement met once it is attached.',
  date_outside_window: 'What to do: check the date against today and the closing day, and move the plan or the due date.',
};

export function findingTodo(kind: string): string {
  return FINDING_TODO[kind] ?? 'What to do: read the detail above and change the response.';
}

/** "1 of 12 steps done", or "3 steps done" while the total is not known (or not yet re-counted after a replan). */
export function progressWords(progress: { done: number; total: number | null }): string {
  return progress.total === null || progress.done > progress.total ? `${progress.done} step${progress.done === 1 ? '' : 's'} done` : `${progress.done} of ${progress.total} steps done`;
}

/** A quote's action line without the API's kind prefix ("send_clarification: email the buyer …"). */
export function quoteActionWords(line: string): string {
  const words = line.replace(/^[a-z_]+:\s*/, '');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
