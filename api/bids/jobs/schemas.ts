import { z } from '@hono/zod-openapi';
import { JOB_STATES } from './store.ts';

/** Wire schema of a background job (GET /v1/bids/{bid}/jobs/{job}, and the jobs GET …/chat lists). */

const instant = z.iso.datetime({ offset: true });

export const JobSchema = z
  .object({
    job_id: z.string(),
    bid_id: z.string().nullable(),
    kind: z.string().openapi({ description: 'What the job does: `bid_run` for a run.' }),
    state: z.enum(JOB_STATES).openapi({
      description:
        'queued: waiting for a worker (not before run_after); running: a worker holds its lease; waiting: on a person\'s decision; succeeded, failed (error says why), stopped: final.',
    }),
    step: z.string().nullable().openapi({ description: 'The step last started, e.g. `draft:req_…`.' }),
    progress: z.object({ done: z.number().int(), total: z.number().int().nullable() }).openapi({ description: 'Steps completed, of those known so far.' }),
    attempts: z.number().int().openapi({
      description:
        'Attempts made so far: an attempt is one claim of the job by a worker, whatever came of it (it succeeded, failed, crashed, stopped to wait on a person, or was handed back at a shutdown). Parking on a person and resuming do not change the count already made; the resume is the next attempt.',
    }),
    max_attempts: z.number().int().openapi({
      description:
        'The attempts that may fail before the job ends failed: a failed or crashed attempt counts against it; one that stopped to wait on a person or was handed back at a shutdown does not. So `attempts` may exceed it.',
    }),
    error: z.string().nullable().openapi({ description: "The last attempt's error; a failed job keeps it." }),
    lease_expires_at: instant.nullable().openapi({ description: 'While running: when another worker may take it over unless its worker renews the lease.' }),
    run_after: instant.nullable().openapi({ description: 'While queued: not taken before this (back-off after a failed attempt).' }),
    created_at: instant,
    updated_at: instant,
    finished_at: instant.nullable(),
  })
  .openapi('Job');
