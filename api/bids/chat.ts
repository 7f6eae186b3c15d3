import type { StateDb } from '../../data/state/db.ts';
import { daysBetween, localDate } from '../../lib/jurisdictions.ts';
import type { BidRecord } from './access.ts';
import { alternatives, isOpenStage, TRANSITIONS, type Stage } from './stages.ts';

/** What GET /v1/bids/{bid}/chat shows: where the bid stands, what runs for it, and a recap built from its state. */
export interface BidChat {
  bid_id: string;
  stage: Stage;
  next_stages: Stage[];
  goal: string | null;
  /** Background jobs of the bid: none exist yet. */
  jobs: never[];
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
  /** Requirements in force (not superseded or withdrawn), the mandatory ones, and mandatory ones with no draft yet. */
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

const NOTHING_RUNNING = 'Nothing is running for this bid: background jobs and runs are not available yet, so everything here changes only when a person acts.';

export function bidChat(state: StateDb, bid: BidRecord, now: Date): BidChat {
  const files = state.get<{ files: number; unreadable: number; pages: number }>(
    `SELECT COUNT(*) AS files, COALESCE(SUM(read_status = 'failed'), 0) AS unreadable,
            (SELECT COUNT(*) FROM bid_file_pages p JOIN bid_files f ON f.file_id = p.file_id WHERE f.bid_id = ?) AS pages
       FROM bid_files WHERE bid_id = ?`,
    bid.bid_id,
    bid.bid_id,
  )!;
  const thread = state.get<{ messages: number }>('SELECT COUNT(*) AS messages FROM bid_thread_messages WHERE bid_id = ?', bid.bid_id)!;
  const last = state.get<{ email: string; created_at: string }>(
    `SELECT a.email, t.created_at FROM bid_thread_messages t JOIN accounts a ON a.account_id = t.author_id
      WHERE t.bid_id = ? ORDER BY t.created_at DESC, t.rowid DESC LIMIT 1`,
    bid.bid_id,
  );
  const work = state.get<{ requirements: number; mandatory: number; undrafted: number; by_people: number; open_gaps: number; tasks: number }>(
    `SELECT COUNT(*) AS requirements, COALESCE(SUM(r.mandatory), 0) AS mandatory,
            COALESCE(SUM(r.mandatory = 1 AND r.kind <> 'instruction' AND d.requirement_id IS NULL), 0) AS undrafted,
            (SELECT COUNT(*) FROM bid_drafts WHERE bid_id = ?1 AND origin = 'person') AS by_people,
            (SELECT COUNT(*) FROM bid_gaps WHERE bid_id = ?1 AND status = 'open') AS open_gaps,
            (SELECT COUNT(*) FROM bid_plan_tasks WHERE bid_id = ?1) AS tasks
       FROM bid_requirements r LEFT JOIN bid_drafts d ON d.bid_id = r.bid_id AND d.requirement_id = r.requirement_id
      WHERE r.bid_id = ?1 AND r.state NOT IN ('superseded', 'withdrawn')`,
    bid.bid_id,
  )!;
  const daysToClose = bid.closing_date === null ? null : daysBetween(localDate(now, bid.buyer_time_zone ?? 'UTC'), bid.closing_date);
  const recap: Omit<BidRecap, 'summary'> = {
    files: files.files,
    unreadable_files: files.unreadable,
    pages_read: files.pages,
    thread_messages: thread.messages,
    last_message: last ? { author: last.email, created_at: last.created_at } : null,
    requirements: work.requirements,
    mandatory_requirements: work.mandatory,
    mandatory_without_draft: work.undrafted,
    drafts_by_people: work.by_people,
    open_gaps: work.open_gaps,
    plan_tasks: work.tasks,
    days_to_close: daysToClose,
  };
  return {
    bid_id: bid.bid_id,
    stage: bid.stage,
    next_stages: [...TRANSITIONS[bid.stage]],
    goal: bid.goal,
    jobs: [],
    running: NOTHING_RUNNING,
    recap: { ...recap, summary: summary(bid, recap) },
  };
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
