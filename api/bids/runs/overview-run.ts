import { z } from '@hono/zod-openapi';
import type { StateDb } from '../../../data/state/db.ts';
import { listActions, ACTION_KINDS, type ActionView } from './actions.ts';
import { findingCount } from './findings.ts';
import { lastRun, LIVE_RUN_STATES, runView, RUN_STATES } from './runs.ts';

/**
 * The run part of the bid overview (`GET /v1/bids/{bid}?include=overview`): the latest run, the actions waiting
 * for a person with their arguments put in plain words, the latest run's actions a person has decided (who, when,
 * and what came of it), and how many findings the latest run left, so the bid page draws its run section from
 * the one read it already makes.
 */

const instant = z.iso.datetime({ offset: true });

export const OverviewRunSchema = z
  .object({
    latest: z
      .object({
        run_id: z.string(),
        state: z.enum(RUN_STATES),
        step: z.string().nullable().openapi({ description: 'The step last started (the step names of api/bids/README.md).' }),
        progress: z.object({ done: z.number().int(), total: z.number().int().nullable() }),
        stop_requested: z.boolean(),
        error: z.string().nullable(),
        last_seq: z.number().int().openapi({ description: "Its last event's seq: the event stream resumes after it." }),
        started_at: instant,
        ended_at: instant.nullable(),
      })
      .nullable()
      .openapi({ description: "The bid's latest run (GET …/runs/{run}); null before any." }),
    pending_actions: z
      .array(
        z.object({
          action_id: z.string(),
          kind: z.enum(ACTION_KINDS),
          title: z.string(),
          waits: z.boolean().openapi({ description: 'Whether a run waits on the decision.' }),
          in_words: z.array(z.string()).openapi({ description: 'What approving it does, from its stored arguments, in sentences for a person.' }),
          created_at: instant,
        }),
      )
      .openapi({ description: 'Actions waiting for a decision (GET …/actions, pending ones), oldest first.' }),
    decided_actions: z
      .array(
        z.object({
          action_id: z.string(),
          kind: z.enum(ACTION_KINDS),
          title: z.string(),
          state: z.enum(['approved', 'rejected']),
          decided_by: z.string().nullable().openapi({ description: 'The address of the person who decided.' }),
          decided_at: instant,
          came_to: z.string().openapi({ description: 'What the decision did, in a sentence for a person.' }),
        }),
      )
      .openapi({ description: "The latest run's actions a person approved or rejected (GET …/actions, decided ones), in the order they were decided." }),
    findings: z.number().int().openapi({ description: 'Findings of the latest run (GET …/findings lists them).' }),
  })
  .openapi('BidOverviewRun');

export type OverviewRun = z.infer<typeof OverviewRunSchema>;

export async function overviewRun(state: StateDb, bidId: string): Promise<OverviewRun> {
  const run = await lastRun(state, bidId);
  const view = run ? await runView(state, run) : null;
  const actions = await listActions(state, bidId);
  const pending = actions.filter((action) => action.state === 'pending').reverse();
  const decided = actions
    .filter((action) => run !== null && action.raised_in_run === run.run_id && (action.state === 'approved' || action.state === 'rejected'))
    .sort((a, b) => a.decided_at!.localeCompare(b.decided_at!) || a.action_id.localeCompare(b.action_id));
  return {
    latest: view && {
      run_id: view.run_id,
      state: view.state,
      step: view.step,
      progress: view.progress,
      stop_requested: view.stop_requested,
      error: view.error,
      last_seq: view.last_seq,
      started_at: view.created_at,
      ended_at: view.finished_at,
    },
    pending_actions: pending.map((action) => ({
      action_id: action.action_id,
      kind: action.kind,
      title: action.title,
      waits: action.run_id !== null,
      in_words: actionInWords(action),
      created_at: action.created_at,
    })),
    decided_actions: decided.map((action) => ({
      action_id: action.action_id,
      kind: action.kind,
      title: action.title,
      state: action.state as 'approved' | 'rejected',
      decided_by: action.decided_by,
      decided_at: action.decided_at!,
      came_to: decisionInWords(action, view !== null && !LIVE_RUN_STATES.includes(view.state)),
    })),
    findings: run ? await findingCount(state, run.run_id) : 0,
  };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** What approving the action does, said from its stored arguments (exactly what approval executes). */
export function actionInWords(action: Pick<ActionView, 'kind' | 'arguments'>): string[] {
  const args = action.arguments;
  switch (action.kind) {
    case 'send_clarification':
      return [`An email to ${text(args['to'])}, with replies to ${text(args['reply_to'])}.`, `Subject: ${text(args['subject'])}`, text(args['text'])];
    case 'fetch_pack':
      return [`The tender's documents are fetched from ${text(args['portal'])} (${text(args['tender_url'])}) and added to this bid's files.`];
    case 'use_model': {
      const count = Number(args['requirements']);
      return [`The ${count} requirement${count === 1 ? '' : 's'} and the matching passages of your organisation's documents are sent to the language model ${text(args['model'])}, which words the drafts.`];
    }
    case 'sign_off': {
      const count = Number(args['findings']);
      return [`You sign the response off as ready to lodge; the run it follows left ${count} finding${count === 1 ? '' : 's'}. Nothing is sent.`];
    }
  }
}

/**
 * What a person's decision on the action did, from its state, stored arguments and outcome; `runEnded` says the
 * run it belongs to has ended, so an approved action not yet done will not be.
 */
export function decisionInWords(action: Pick<ActionView, 'kind' | 'state' | 'arguments' | 'outcome'>, runEnded: boolean): string {
  const args = action.arguments;
  const approved = action.state === 'approved';
  switch (action.kind) {
    case 'send_clarification':
      if (!approved) return `Nothing was sent: no email went to ${text(args['to'])}, and the run went on without asking the buyer.`;
      if (action.outcome) return `The email went to ${text(action.outcome['sent_to'])}.`;
      return runEnded ? `No email went to ${text(args['to'])}: the run ended before sending it.` : `The email to ${text(args['to'])} is sent as the run's next step.`;
    case 'use_model':
      return approved
        ? `The drafts are worded by the language model ${text(args['model'])}.`
        : "Nothing was sent to the language model: the drafts are your organisation's own passages, each saying a person declined.";
    case 'fetch_pack':
      if (!approved) return "Nothing was fetched: the run went on with the bid's own files.";
      return action.outcome || !runEnded ? "The tender's documents are fetched from the portal into this bid's files." : 'Nothing was fetched: the run ended before fetching.';
    case 'sign_off':
      return approved ? 'The response is signed off as ready to lodge.' : 'The response is not signed off.';
  }
}
