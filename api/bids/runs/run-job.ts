import type { StateDb } from '../../../data/state/db.ts';
import type { Mailer } from '../../../lib/mailer.ts';
import { newId } from '../../../lib/tokens.ts';
import { bidRecord, type BidRecord } from '../access.ts';
import { bidPassages, draftRequirement, type DraftOutcome } from '../drafts/recompute.ts';
import type { Passage } from '../drafts/retrieval.ts';
import { listDrafts, removeStaleDrafts } from '../drafts/store.ts';
import { filePages, listBidFiles } from '../files.ts';
import type { JobRow } from '../jobs/store.ts';
import type { JobChange, JobContext, JobHandler, StepChange } from '../jobs/worker.ts';
import { listPlan } from '../plan.ts';
import { listRequirements } from '../requirements/store.ts';
import { postRunMessage } from '../thread.ts';
import { bidToday, markDrafted, recomputeGaps, recomputePlan, type WorkspaceDeps } from '../workspace.ts';
import { actionRow, cancelRunActions, insertAction, newActionId, recordActionOutcome, type ActionKind } from './actions.ts';
import { clarificationEmail, clarificationQuestions, contactAddress } from './clarification.ts';
import { checkCompliance, type FindingKind } from './compliance.ts';
import { appendRunEvent } from './events.ts';
import { storeFindings } from './findings.ts';
import { runOfJob, type RunRow } from './runs.ts';

/**
 * The run of a bid as a job of recorded steps (api/bids/jobs/worker.ts): read the files (fetching the tender
 * pack first, with a person's approval, when there are none and a fetcher offers it), extract requirements,
 * ask the buyer what the pack leaves open (an email, approved first), draft each answer with citations
 * (sending the bid's text to the language model only once a person approves), mark requirements drafted,
 * derive gaps and the plan, check compliance into findings, and leave a sign-off for a person. Every step
 * is recorded before the next begins; the thread hears what the run does.
 */

/** Fetches a tender's documents into a bid (the tender-pack fetch): offered for tenders of the portal it serves. */
export interface PackFetcher {
  /** The arguments a fetch of this bid's pack would run with, or null when it is not offered for the bid. */
  offer(bid: BidRecord): Record<string, unknown> | null;
  /**
   * Queues a fetch job with exactly those arguments, in the name of `accountId`, that adds the pack's files to
   * the bid; the job `resumeJob` (the run, waiting on it) is queued again when the fetch ends.
   */
  queue(bid: BidRecord, args: Record<string, unknown>, accountId: string, resumeJob: string): Promise<{ fetch_id: string }>;
  /** How the fetch ended, or null while it is queued or running. */
  outcome(bid: BidRecord, fetchId: string): Promise<{ state: 'succeeded' | 'failed'; detail: string; files_added: number } | null>;
}

export interface RunJobDeps extends WorkspaceDeps {
  mailer: Mailer;
  now: () => Date;
  /**
   * The clock a run's "today" is read on: the served release's (pinned to the fixtures' day in fixture mode), as
   * the chat's recap and the worth-bidding card read it, so all three count from one day.
   */
  today: () => Date;
  packFetcher?: PackFetcher | undefined;
}

const DECLINED_MODEL = 'A person declined to send this bid to the language model for this run';
const MESSAGE_ID_DOMAIN = 'tender-intel.invalid';

export function bidRunHandler(deps: RunJobDeps): JobHandler {
  return {
    run: async (ctx) => await prepareBid(deps, ctx),
    changed: async (job, change) => await mirrorJobChange(deps.state, job, change, deps.now()),
    stepped: async (job, change) => await recordStep(deps.state, job, change, deps.now()),
  };
}

/** Keeps the run's state and event log in step with its job, inside the job's own transaction. */
async function mirrorJobChange(state: StateDb, job: JobRow, change: JobChange, now: Date): Promise<void> {
  const run = await runOfJob(state, job.job_id);
  if (!run) return;
  const at = now.toISOString();
  const event = async (kind: Parameters<typeof appendRunEvent>[3], data: Record<string, unknown>) => await appendRunEvent(state, run.bid_id, run.run_id, kind, data, now);
  const setState = async (next: RunRow['state'], final = false) =>
    await state.run(`UPDATE bid_runs SET state = ?${final ? ', finished_at = ?' : ''} WHERE run_id = ?`, ...(final ? [next, at, run.run_id] : [next, run.run_id]));
  switch (change.to) {
    case 'running': {
      const begun = (await state.get<{ n: number }>("SELECT COUNT(*) AS n FROM bid_run_events WHERE run_id = ? AND kind = 'run_started'", run.run_id))!.n > 0;
      await setState('running');
      await event(begun ? 'run_resumed' : 'run_started', { attempt: change.attempt, ...(begun ? { taken_over: change.takeover } : {}) });
      return;
    }
    case 'waiting':
      await setState('waiting');
      await event('run_waiting', { action_ids: (await state.all<{ action_id: string }>("SELECT action_id FROM bid_actions WHERE run_id = ? AND state = 'pending'", run.run_id)).map((row) => row.action_id) });
      return;
    case 'queued':
      await setState('queued');
      if (change.reason === 'retry') await event('step_retrying', { step: job.step, attempt: change.attempt, error: change.error, retry_at: change.runAfter });
      return;
    case 'succeeded':
      await setState('completed', true);
      await cancelRunActions(state, run.run_id, now);
      await event('run_completed', { summary: change.result as Record<string, unknown> });
      return;
    case 'failed':
      await setState('failed', true);
      await cancelRunActions(state, run.run_id, now);
      await event('run_failed', { error: change.error });
      return;
    case 'stopped':
      await setState('stopped', true);
      await cancelRunActions(state, run.run_id, now);
      await event('run_stopped', { step: job.step });
      return;
  }
}

async function recordStep(state: StateDb, job: JobRow, change: StepChange, now: Date): Promise<void> {
  const run = await runOfJob(state, job.job_id);
  if (!run) return;
  if (change.phase === 'started') await appendRunEvent(state, run.bid_id, run.run_id, 'step_started', { step: change.key, attempt: change.attempt, again: change.again }, now);
  else await appendRunEvent(state, run.bid_id, run.run_id, 'step_completed', { step: change.key }, now);
}

interface RunSummary {
  requirements: number;
  drafted: number;
  undrafted: number;
  open_gaps: number;
  plan_tasks: number;
  findings: Record<FindingKind, number>;
}

/** What every phase of a run shares: the run and its bid, and how the run speaks, asks and counts its steps. */
interface RunScope {
  deps: RunJobDeps;
  ctx: JobContext;
  run: RunRow;
  bid: BidRecord;
  /** Posts `text` to the bid's thread once, as the step `message:<key>`. */
  say: (key: string, text: string) => Promise<unknown>;
  /** Raises an action for a person and waits for the decision. */
  decision: (key: string, kind: ActionKind, title: string, args: Record<string, unknown>) => Promise<'approved' | 'rejected'>;
  /** Steps the run will take, as far as known: progress is steps done of these (an approved action's execution counted until it is rejected). */
  planned: { pack: number; noFiles: number; questions: number; model: number; drafts: number };
  /** Sets the job's total from `planned`. */
  replan: () => Promise<void>;
}

async function prepareBid(deps: RunJobDeps, ctx: JobContext): Promise<RunSummary> {
  const { state, now } = deps;
  const { run_id: runId } = JSON.parse(ctx.job.input) as { run_id: string };
  const run = await state.get<RunRow>('SELECT * FROM bid_runs WHERE run_id = ?', runId);
  const bid = run && await bidRecord(state, run.bid_id);
  if (!run || !bid) throw new Error(`The run ${runId} or its bid is gone.`);
  const planned = { pack: 0, noFiles: 0, questions: 0, model: 0, drafts: 0 };
  const scope: RunScope = {
    deps,
    ctx,
    run,
    bid,
    say: async (key, text) =>
      await ctx.step(`message:${key}`, () => null, async () => {
        const messageId = await postRunMessage(state, bid.bid_id, runId, run.started_by, text, now());
        await appendRunEvent(state, bid.bid_id, runId, 'message', { message_id: messageId }, now());
      }),
    decision: async (key, kind, title, args) => await awaitDecision(deps, ctx, run, key, kind, title, args),
    planned,
    replan: async () => await ctx.setTotal(3 + planned.pack + planned.noFiles + 2 + planned.questions + 1 + planned.model + planned.drafts + 6),
  };

  await readFiles(scope);
  const extracted = await ctx.step('extract_requirements', async () => {
    await deps.requirements.recompute(state, bid.bid_id, { now: now() });
    return { requirement_ids: (await deps.requirements.list(state, bid.bid_id)).map((requirement) => requirement.requirement_id) };
  });
  planned.drafts = extracted.requirement_ids.length;
  await scope.replan();
  await askTheBuyer(scope);
  const withoutModel = await modelChoice(scope, extracted.requirement_ids.length);
  const outcomes = await draftAnswers(scope, extracted.requirement_ids, withoutModel);
  const openGaps = await ctx.step('gaps', async () => await recomputeGaps(deps, bid, now()));
  const planTasks = await ctx.step('plan', async () => await recomputePlan(deps, bid, now()));
  const findings = await checkTheResponse(scope);

  const drafts = new Map((await listDrafts(state, bid.bid_id)).map((draft) => [draft.requirement_id, draft]));
  const drafted = extracted.requirement_ids.filter((id) => drafts.get(id)?.origin === 'person' || (drafts.get(id)?.citations.length ?? 0) > 0).length;
  const counts = Object.fromEntries(['mandatory_unanswered', 'length_limit', 'returnable_missing', 'date_outside_window'].map((kind) => [kind, findings.filter((finding) => finding.kind === kind).length])) as Record<FindingKind, number>;
  const summary: RunSummary = { requirements: extracted.requirement_ids.length, drafted, undrafted: extracted.requirement_ids.length - drafted - outcomes.filter((o) => o.outcome === 'gone' || o.outcome === 'followed').length, open_gaps: openGaps, plan_tasks: planTasks, findings: counts };
  await signOff(scope, summary, findings.length);
  return summary;
}

/** Reads the bid's files; with none readable and a pack offered, fetches the tender's documents once a person approves. */
async function readFiles({ deps, ctx, run, bid, say, decision, planned, replan }: RunScope): Promise<void> {
  const { state } = deps;
  let files = await ctx.step('read_files', async () => await fileCounts(state, bid.bid_id));
  await say('started', `Run started: it reads the ${files.readable} readable file${files.readable === 1 ? '' : 's'}, extracts the requirements, drafts each answer from the organisation's own documents with citations, derives gaps and the plan, and checks compliance. It asks here before anything leaves the server.`);
  const offer = await ctx.step('pack_offer', () => (files.readable === 0 ? (deps.packFetcher?.offer(bid) ?? null) : null));
  if (offer !== null && deps.packFetcher) {
    const fetcher = deps.packFetcher;
    planned.pack = 3;
    await replan();
    if ((await decision('fetch_pack', 'fetch_pack', "Fetch the tender's documents from its portal", offer)) === 'rejected') planned.pack = 1;
    else {
      const queued = await execute(ctx, state, 'fetch_pack', async (args) => await fetcher.queue(bid, args, run.started_by, ctx.job.job_id));
      // The fetch is a job of its own: the run gives its worker back until the fetch ends and queues it again.
      await ctx.waitUnless(async () => await fetcher.outcome(bid, queued.fetch_id) !== null);
      files = await ctx.step('read_fetched_files', async () => ({ ...await fileCounts(state, bid.bid_id), fetch: await fetcher.outcome(bid, queued.fetch_id) }));
    }
  }
  if (files.readable === 0) {
    planned.noFiles = 1;
    await say('no_files', 'No file of this bid could be read, so there are no requirements to answer: upload the tender documents and start another run.');
  }
}

/** Finds what the documents leave open and, once a person approves, emails the buyer the questions (or lists them when no address is given). */
async function askTheBuyer({ deps, ctx, run, bid, say, decision, planned, replan }: RunScope): Promise<void> {
  const { state } = deps;
  const asked = await ctx.step('find_questions', async () => {
    const pages = await filePages(state, bid.bid_id);
    return { to: contactAddress(pages), questions: clarificationQuestions(pages, await listRequirements(state, bid.bid_id), bid.closing_date) };
  });
  planned.questions = asked.questions.length === 0 ? 0 : asked.to === null ? 1 : 2;
  await replan();
  if (asked.questions.length > 0 && asked.to !== null) {
    const starter = (await state.get<{ email: string }>('SELECT email FROM accounts WHERE account_id = ?', run.started_by))!.email;
    const company = (await state.get<{ company_name: string }>('SELECT company_name FROM orgs WHERE org_id = ?', bid.org_id))?.company_name ?? 'We';
    const email = clarificationEmail({ to: asked.to, replyTo: starter, company, bidTitle: bid.title, questions: asked.questions });
    const title = `Email ${asked.questions.length} clarification question${asked.questions.length === 1 ? '' : 's'} to the buyer at ${asked.to}`;
    const verdict = await decision('send_clarification', 'send_clarification', title, email);
    if (verdict === 'rejected') {
      planned.questions = 1;
      await replan();
    } else {
      await execute(ctx, state, 'send_clarification', async (args, actionId) => {
        const stored = args as ReturnType<typeof clarificationEmail>;
        const messageId = `<${actionId}@${MESSAGE_ID_DOMAIN}>`;
        // Sent again only when the process stopped inside this very step: the same Message-ID lets the recipient's mail system see it is one message.
        await deps.mailer.send({ to: stored.to, subject: stored.subject, text: stored.text, replyTo: stored.reply_to, messageId });
        return { sent_to: stored.to, message_id: messageId };
      });
    }
  } else if (asked.questions.length > 0) {
    await say('questions', `These questions for the buyer came up, and the documents give no address to send them to:\n${asked.questions.map((question, index) => `${index + 1}. ${question}`).join('\n')}`);
  }
}

/** Asks a person before the bid's text goes to the language model; the reason to draft without it, when declined. */
async function modelChoice({ deps, ctx, decision, planned, replan }: RunScope, requirements: number): Promise<string | undefined> {
  const { model } = await ctx.step('model_choice', () => ({ model: deps.model.model }));
  if (model === null) return undefined;
  planned.model = 1;
  await replan();
  const title = `Send the requirements and the organisation's passages to the language model ${model} to word the drafts`;
  const verdict = await decision('use_model', 'use_model', title, { model, requirements });
  return verdict === 'rejected' ? DECLINED_MODEL : undefined;
}

/** Drafts each requirement with citations, one step each, then marks the drafted ones. */
async function draftAnswers({ deps, ctx, bid }: RunScope, requirementIds: readonly string[], withoutModel: string | undefined): Promise<(DraftOutcome | { outcome: 'gone' | 'followed' })[]> {
  const { state, now } = deps;
  let passages: Passage[] | null = null;
  const outcomes: (DraftOutcome | { outcome: 'gone' | 'followed' })[] = [];
  for (const requirementId of requirementIds) {
    outcomes.push(
      await ctx.step(`draft:${requirementId}`, async () => {
        const requirement = (await listRequirements(state, bid.bid_id)).find((row) => row.requirement_id === requirementId);
        if (!requirement) return { outcome: 'gone' as const };
        // An instruction to tenderers (how and where to lodge) is followed when lodging, not answered.
        if (requirement.kind === 'instruction') return { outcome: 'followed' as const };
        passages ??= await bidPassages(deps, bid, now());
        return await draftRequirement(deps, bid.bid_id, requirement, passages, now(), withoutModel);
      }),
    );
  }
  await ctx.step('mark_drafted', async () => {
    await removeStaleDrafts(state, bid.bid_id, requirementIds);
    await markDrafted(deps, bid.bid_id, now());
    return null;
  });
  return outcomes;
}

/** The compliance check of the response as it stands, stored as the run's findings. */
async function checkTheResponse({ deps, ctx, run, bid }: RunScope) {
  const { state, now } = deps;
  return await ctx.step(
    'compliance',
    async () =>
      checkCompliance({
        requirements: await listRequirements(state, bid.bid_id),
        drafts: await listDrafts(state, bid.bid_id),
        files: await filePages(state, bid.bid_id),
        today: await bidToday(state, bid, deps.today()),
        // The tender's own closing day: the plan falls back on the team's due date, which is checked apart.
        closingDate: bid.closing_date,
        dueDate: bid.due_date,
        tasks: await listPlan(state, bid.bid_id),
      }).map((finding) => ({ ...finding, finding_id: newId('fnd_') })),
    async (found) => await storeFindings(state, bid.bid_id, run.run_id, found, now()),
  );
}

/** Leaves a sign-off for a person (superseding an earlier pending one) and the run's recap in the thread. */
async function signOff({ deps, ctx, run, bid, say }: RunScope, summary: RunSummary, findings: number): Promise<void> {
  const { state, now } = deps;
  await ctx.step('raise:sign_off', () => ({ action_id: newActionId() }), async ({ action_id: actionId }) => {
    // One sign-off stands for the latest run: an earlier one still pending is superseded.
    await state.run("UPDATE bid_actions SET state = 'cancelled', decided_at = ? WHERE bid_id = ? AND kind = 'sign_off' AND state = 'pending'", now().toISOString(), bid.bid_id);
    await insertAction(state, {
      actionId,
      bidId: bid.bid_id,
      runId: null,
      raisedInRun: run.run_id,
      kind: 'sign_off',
      title: 'Sign off the response as ready to lodge',
      arguments: { run_id: run.run_id, findings },
      now: now(),
    });
  });
  await say(
    'recap',
    `Run finished: ${summary.requirements} requirement${summary.requirements === 1 ? '' : 's'}, ${summary.drafted} drafted with evidence, ${summary.undrafted} without; ` +
      `${summary.open_gaps} gap${summary.open_gaps === 1 ? '' : 's'} open; a plan of ${summary.plan_tasks} task${summary.plan_tasks === 1 ? '' : 's'}; ` +
      `${findings} finding${findings === 1 ? '' : 's'} (GET /v1/bids/${bid.bid_id}/findings). A sign-off waits in GET /v1/bids/${bid.bid_id}/actions.`,
  );
}

async function fileCounts(state: StateDb, bidId: string): Promise<{ readable: number; unreadable: number; pages: number }> {
  const files = await listBidFiles(state, bidId);
  return {
    readable: files.filter((file) => file.read_status === 'read').length,
    unreadable: files.filter((file) => file.read_status === 'failed').length,
    pages: files.reduce((sum, file) => sum + file.pages_read, 0),
  };
}

/**
 * Raises the action once (its id recorded with the step), then waits for the decision: the job parks until a
 * person approves or rejects it, and the next attempt finds the decision here.
 */
async function awaitDecision(deps: RunJobDeps, ctx: JobContext, run: RunRow, key: string, kind: ActionKind, title: string, args: Record<string, unknown>): Promise<'approved' | 'rejected'> {
  const { state } = deps;
  const { action_id: actionId } = await ctx.step(`raise:${key}`, () => ({ action_id: newActionId() }), async ({ action_id }) => {
    await insertAction(state, { actionId: action_id, bidId: run.bid_id, runId: run.run_id, raisedInRun: run.run_id, kind, title, arguments: args, now: deps.now() });
    const messageId = await postRunMessage(
      state,
      run.bid_id,
      run.run_id,
      run.started_by,
      `Waiting for a decision: ${title}. Approve with POST /v1/bids/${run.bid_id}/actions/${action_id}/approve, or reject with …/reject.`,
      deps.now(),
    );
    await appendRunEvent(state, run.bid_id, run.run_id, 'message', { message_id: messageId }, deps.now());
  });
  await ctx.waitUnless(async () => (await actionRow(state, actionId))!.state !== 'pending');
  return (await actionRow(state, actionId))!.state === 'approved' ? 'approved' : 'rejected';
}

/** Executes an approved action's stored arguments, exactly as stored, as one recorded step; its outcome is kept on the action. */
async function execute<T extends Record<string, unknown>>(ctx: JobContext, state: StateDb, key: string, work: (args: Record<string, unknown>, actionId: string) => Promise<T>): Promise<T> {
  const actionId = (await ctx.recorded<{ action_id: string }>(`raise:${key}`))!.action_id;
  const args = JSON.parse((await actionRow(state, actionId))!.arguments) as Record<string, unknown>;
  return await ctx.step(`execute:${key}`, () => work(args, actionId), async (outcome) => await recordActionOutcome(state, actionId, outcome));
}
