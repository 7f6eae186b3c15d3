import type { StateDb } from '../../data/state/db.ts';
import { daysBetween } from '../../lib/jurisdictions.ts';
import type { BidRecord } from './access.ts';
import { jobView, liveJobsOf, type JobView } from './jobs/store.ts';
import { listRequirements } from './requirements/store.ts';
import { findingCount } from './runs/findings.ts';
import { lastRun, runView } from './runs/runs.ts';
import { alternatives, isOpenStage, TRANSITIONS, type Stage } from './stages.ts';
import { bidChecks, bidToday } from './workspace.ts';

/** What GET /v1/bids/{bid}/chat shows: where the bid stands, what runs for it, and a recap built from its state. */
export interface BidChat {
  bid_id: string;
  stage: Stage;
  next_stages: Stage[];
  goal: string | null;
  /** Background jobs of the bid not yet finished, oldest first. */
  jobs: JobView[];
  /** What is running for the bid, as a sentence. */
  running: string;
  recap: BidRecap;
}

export interface BidRecap {
  files: number;
  /** Files kept whose text could not be read. */
  unreadable_files: number;
  pages_read: number;
  thread_messages: number;
  last_message: { author: string; created_at: string } | null;
  /**
   * Requirements in force (not superseded or withdrawn), the mandatory ones, and mandatory ones with no draft
   * carrying evidence (bidChecks: the worth-bidding card counts the same).
   */
  requirements: number;
  mandatory_requirements: number;
  mandatory_without_draft: number;
  /** Drafts a person wrote (recompute never overwrites them). */
  drafts_by_people: number;
  open_gaps: number;
  plan_tasks: number;
  /** Whole days from today to the closing day, both in the buyer's time zone; null without a closing date. */
  days_to_close: number | null;
  /** The recap as sentences a person reads. */
  summary: string;
}

export async function bidChat(state: StateDb, bid: BidRecord, now: Date): Promise<BidChat> {
  const files = (await state.get<{ files: number; unreadable: number; pages: number }>(
    `SELECT COUNT(*) AS files, COUNT(CASE WHEN read_status = 'failed' THEN 1 END) AS unreadable,
            (SELECT COUNT(*) FROM bid_file_pages p JOIN bid_files f ON f.file_id = p.file_id WHERE f.bid_id = ?) AS pages
       FROM bid_files WHERE bid_id = ?`,
    bid.bid_id,
    bid.bid_id,
  ))!;
  const thread = (await state.get<{ messages: number }>('SELECT COUNT(*) AS messages FROM bid_thread_messages WHERE bid_id = ?', bid.bid_id))!;
  const last = await state.get<{ email: string; created_at: string }>(
    `SELECT a.email, t.created_at FROM bid_thread_messages t JOIN accounts a ON a.account_id = t.author_id
      WHERE t.bid_id = ? ORDER BY t.created_at DESC, t.rowid DESC LIMIT 1`,
    bid.bid_id,
  );
  const work = (await state.get<{ by_people: number; tasks: number }>(
    `SELECT (SELECT COUNT(*) FROM bid_drafts WHERE bid_id = ? AND origin = 'person') AS by_people,
            (SELECT COUNT(*) FROM bid_plan_tasks WHERE bid_id = ?) AS tasks`,
    bid.bid_id,
    bid.bid_id,
  ))!;
  const requirements = await listRequirements(state, bid.bid_id);
  const checks = await bidChecks(state, requirements, bid.bid_id);
  const daysToClose = bid.closing_date === null ? null : daysBetween(await bidToday(state, bid, now), bid.closing_date);
  const recap: Omit<BidRecap, 'summary'> = {
    files: files.files,
    unreadable_files: files.unreadable,
    pages_read: files.pages,
    thread_messages: thread.messages,
    last_message: last ? { author: last.email, created_at: last.created_at } : null,
    requirements: requirements.length,
    mandatory_requirements: requirements.filter((requirement) => requirement.mandatory).length,
    mandatory_without_draft: checks.mandatoryWithoutDraft,
    drafts_by_people: work.by_people,
    open_gaps: checks.openGaps,
    plan_tasks: work.tasks,
    days_to_close: daysToClose,
  };
  return {
    bid_id: bid.bid_id,
    stage: bid.stage,
    next_stages: [...TRANSITIONS[bid.stage]],
    goal: bid.goal,
    jobs: (await liveJobsOf(state, bid.bid_id)).map(jobView),
    running: await whatRuns(state, bid),
    recap: { ...recap, summary: summary(bid, recap) },
  };
}

/** What runs for the bid now, with its step and progress, or what ran last, as a sentence. */
async function whatRuns(state: StateDb, bid: BidRecord): Promise<string> {
  const run = await lastRun(state, bid.bid_id);
  if (run === null) return 'Nothing is running for this bid, and no run has been started: GET …/runs/quote says what a run does.';
  const view = await runView(state, run);
  const progress = view.progress.total === null ? `${view.progress.done} steps done` : `${view.progress.done} of ${view.progress.total} steps done`;
  switch (run.state) {
    case 'queued':
      return `The run ${run.run_id} is queued for a worker (${progress}).`;
    case 'running':
      return `The run ${run.run_id} is at step ${view.step ?? 'start'} (${progress})${view.stop_requested ? '; it stops after this step' : ''}.`;
    case 'waiting':
      return `The run ${run.run_id} waits for a person to decide ${view.pending_actions.length === 1 ? 'an action' : `${view.pending_actions.length} actions`} (${view.pending_actions.join(', ')}) in GET …/actions (${progress}).`;
    default:
      return `Nothing is running for this bid. The last run, ${run.run_id}, ${run.state === 'completed' ? 'completed' : `ended ${run.state}`} at ${run.finished_at} with ${plural(await findingCount(state, run.run_id), 'finding')}.`;
  }
}

function summary(bid: BidRecord, recap: Omit<BidRecap, 'summary'>): string {
  const sentences = [
    `${bid.title} is ${bid.stage}${isOpenStage(bid.stage) ? `; next it may move to ${alternatives(TRANSITIONS[bid.stage])}.` : ', a final stage.'}`,
    bid.goal ? `Goal: ${bid.goal}` : 'No goal is set.',
    recap.days_to_close === null
      ? 'No closing date is recorded.'
      : recap.days_to_close < 0
        ? `The tender closed on ${bid.closing_date}.`
        : `The tender closes on ${bid.closing_date} (${bid.buyer_time_zone}), ${plural(recap.days_to_close, 'day')} from today.`,
    bid.due_date ? `The team's own due date is ${bid.due_date}.` : null,
    recap.files === 0
      ? 'No files are uploaded yet.'
      : `${plural(recap.files, 'file')} uploaded, ${plural(recap.pages_read, 'page')} of text read${recap.unreadable_files > 0 ? `; ${plural(recap.unreadable_files, 'file')} could not be read` : ''}.`,
    recap.requirements === 0
      ? 'No requirements yet: they are read from the uploaded files, or a person adds them.'
      : `${plural(recap.requirements, 'requirement')}, ${recap.mandatory_requirements} mandatory${recap.mandatory_without_draft > 0 ? `, ${recap.mandatory_without_draft} of them without a draft` : ''}; ${plural(recap.drafts_by_people, 'draft')} written by people.`,
    recap.open_gaps === 0 ? 'No gaps are open.' : `${plural(recap.open_gaps, 'gap')} open.`,
    recap.plan_tasks === 0 ? 'No plan yet: recompute the plan to schedule the work.' : `The plan has ${plural(recap.plan_tasks, 'task')}.`,
    recap.last_message === null
      ? 'The thread is empty.'
      : `The thread has ${plural(recap.thread_messages, 'message')}, the last from ${recap.last_message.author} at ${recap.last_message.created_at}.`,
  ];
  return sentences.filter((sentence) => sentence !== null).join(' ');
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
