import { z } from '@hono/zod-openapi';
import { strictBody } from '../../orgs/schemas.ts';
import { wholeNumber } from '../../schemas/common.ts';
import { BidParams } from '../schemas.ts';
import { ACTION_KINDS, ACTION_STATES, DECISIONS } from './actions.ts';
import { FINDING_KINDS } from './compliance.ts';
import { RUN_STATES } from './runs.ts';

/** Wire schemas of the run routes (api/routes/bid-runs.ts). */

const instant = z.iso.datetime({ offset: true });
const seq = (what: string) => wholeNumber(what, 0).default(0).openapi({ param: { name: 'since_seq', in: 'query' }, default: 0 });

export const RunParams = BidParams.extend({
  run: z.string().openapi({ param: { name: 'run', in: 'path' }, description: 'The run id (`run_…`).', example: 'run_3f2a9c0d5e6b7a81' }),
});

export const JobParams = BidParams.extend({
  job: z.string().openapi({ param: { name: 'job', in: 'path' }, description: 'The job id (`job_…`).', example: 'job_3f2a9c0d5e6b7a81' }),
});

export const ActionParams = BidParams.extend({
  action: z.string().openapi({ param: { name: 'action', in: 'path' }, description: 'The action id (`act_…`).', example: 'act_3f2a9c0d5e6b7a81' }),
  decision: z.enum(DECISIONS, { error: 'must be approve or reject' }).openapi({ param: { name: 'decision', in: 'path' }, description: '`approve` or `reject`.' }),
});

export const EventsQuery = z.object({
  since_seq: seq('Events after this seq (the last one received); a `Last-Event-ID` header takes its place on a reconnect.'),
});

export const FindingsQuery = z.object({
  since_seq: seq('Findings at or after this position in the bid\'s chain (the seq of their `finding` event).'),
});

/** POST …/runs takes an empty object, or no body; fields may come later. */
export const StartRunBody = strictBody({});

export const RunSchema = z
  .object({
    run_id: z.string(),
    bid_id: z.string(),
    job_id: z.string().openapi({ description: 'Its background job: GET …/jobs/{job}.' }),
    state: z.enum(RUN_STATES).openapi({ description: 'queued, running, waiting (on an action), then completed, stopped or failed.' }),
    step: z.string().nullable(),
    progress: z.object({ done: z.number().int(), total: z.number().int().nullable() }),
    attempts: z.number().int().openapi({ description: "Its job's attempts: every claim by a worker, waiting on a person included (GET …/jobs/{job})." }),
    stop_requested: z.boolean().openapi({ description: 'A stop was asked for: the run ends at its next step boundary.' }),
    error: z.string().nullable().openapi({ description: 'Why it failed; null otherwise.' }),
    started_by: z.string(),
    findings: z.number().int(),
    pending_actions: z.array(z.string()).openapi({ description: 'Actions it waits on (GET …/actions).' }),
    last_seq: z.number().int().openapi({ description: "Its last event's seq." }),
    created_at: instant,
    finished_at: instant.nullable(),
  })
  .openapi('BidRun');

export const QuoteSchema = z
  .object({
    bid_id: z.string(),
    paid: z.boolean().openapi({ description: 'Whether the bid is paid for: a run needs it.' }),
    price: z.object({ amount: z.number(), currency: z.string() }).nullable().openapi({ description: 'The flat fee (GET /v1/pricing); null while bid preparation is not on sale here.' }),
    checkout: z.string().openapi({ description: 'Where an unpaid bid is paid for.' }),
    steps: z.array(z.string()).openapi({ description: 'What a run does, in order.' }),
    files: z.object({ readable: z.number().int(), unreadable: z.number().int(), pages: z.number().int() }),
    requirements: z.number().int().openapi({ description: 'Requirements in force now (a run extracts them again first).' }),
    language_model: z.string().nullable().openapi({ description: 'The model drafts are worded by, after a person approves; null when none is configured (drafts are then the cited passages).' }),
    actions: z.array(z.string()).openapi({ description: 'What a run may ask a person to approve before it goes on.' }),
    live_run: z.string().nullable().openapi({ description: 'The run now queued, running or waiting, if any: a second is refused.' }),
  })
  .openapi('BidRunQuote');

export const FindingSchema = z
  .object({
    finding_id: z.string(),
    run_id: z.string(),
    seq: z.number().int().openapi({ description: 'Its position in the bid\'s chain: the seq of its `finding` event.' }),
    kind: z.enum(FINDING_KINDS).openapi({
      description: 'mandatory_unanswered, length_limit (page or word limit), returnable_missing (a form to return is not among the files), date_outside_window (a date outside today to closing).',
    }),
    requirement_id: z.string().nullable(),
    title: z.string(),
    detail: z.string(),
    created_at: instant,
  })
  .openapi('BidFinding');

export const FindingListSchema = z
  .object({
    findings: z.array(FindingSchema).openapi({ description: 'In chain order.' }),
    next_since_seq: z.number().int().openapi({ description: 'Ask with since_seq set to this for findings after these.' }),
  })
  .openapi('BidFindingList');

export const ActionSchema = z
  .object({
    action_id: z.string(),
    bid_id: z.string(),
    kind: z.enum(ACTION_KINDS).openapi({
      description: 'fetch_pack, send_clarification (an email to the buyer), use_model (send the bid\'s text to the language model), sign_off (no run waits on it).',
    }),
    title: z.string(),
    arguments: z.record(z.string(), z.unknown()).openapi({ description: 'Exactly what approval executes.' }),
    state: z.enum(ACTION_STATES).openapi({ description: 'pending; approved or rejected by a person; cancelled when its run ended first.' }),
    run_id: z.string().nullable().openapi({ description: 'The run waiting on the decision; null when none waits.' }),
    raised_in_run: z.string().nullable(),
    decided_by: z.string().nullable(),
    decided_at: instant.nullable(),
    outcome: z.record(z.string(), z.unknown()).nullable().openapi({ description: 'What executing it came to.' }),
    created_at: instant,
  })
  .openapi('BidAction');

export const ActionListSchema = z.object({ actions: z.array(ActionSchema).openapi({ description: 'Pending first, then decided, newest first.' }) }).openapi('BidActionList');

export const DecisionSchema = z
  .object({
    action: ActionSchema,
    hermes_run_id: z.string().nullable().openapi({ description: 'The run the decision resumed; null for an action no run waits on.' }),
  })
  .openapi('BidActionDecision');

export const DrainSchema = z
  .object({
    taken_over: z.array(z.string()).openapi({ description: 'Jobs whose worker stopped (their lease expired), now run by this instance.' }),
    started: z.array(z.string()).openapi({ description: 'Queued jobs started now.' }),
    failed: z.array(z.string()).openapi({ description: 'Jobs left by a stopped worker on their last attempt: ended failed.' }),
    running: z.array(z.string()).openapi({ description: 'Every job this instance now runs.' }),
  })
  .openapi('JobsDrain');
