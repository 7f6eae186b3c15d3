import { z } from '@hono/zod-openapi';
import type { StateDb } from '../../../data/state/db.ts';
import { listActions, ACTION_KINDS, type ActionView } from './actions.ts';
import { findingCount } from './findings.ts';
import { lastRun, runView, RUN_STATES } from './runs.ts';

/**
 * The run part of the bid overview (`GET /v1/bids/{bid}?include=overview`): the latest run, the actions waiting
 * for a person with their arguments put in plain words, and how many findings the latest run left, so the bid
 * page draws its run section from the one read it already makes.
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
    findings: z.number().int().openapi({ description: 'Findings of the latest run (GET …/findings lists them).' }),
  })
  .openapi('BidOverviewRun');

export type OverviewRun = z.infer<typeof OverviewRunSchema>;

export async function overviewRun(state: StateDb, bidId: string): Promise<OverviewRun> {
  const run = await lastRun(state, bidId);
  const view = run ? await runView(state, run) : null;
  const pending = (await listActions(state, bidId)).filter((action) => action.state === 'pending').reverse();
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
