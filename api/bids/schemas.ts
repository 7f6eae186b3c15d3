import { z } from '@hono/zod-openapi';
import { strictBody } from '../orgs/schemas.ts';
import { JobSchema } from './jobs/schemas.ts';
import { STAGES } from './stages.ts';
import { MAX_MESSAGE_CHARACTERS } from './thread.ts';

/** Wire schemas of the bid routes (api/routes/bids.ts). Request bodies are strict: an unknown field is refused with 400. */

const instant = z.iso.datetime({ offset: true });
const calendarDate = (what: string) =>
  z.iso.date({ error: `must be a calendar date such as 2026-07-31, or null to clear it` }).openapi({ description: what, example: '2026-07-31' });
const stageChoice = `must be one of ${STAGES.join(', ')}`;

export const StageSchema = z.enum(STAGES, { error: stageChoice }).openapi('BidStage', {
  description: 'qualifying → preparing → reviewing → submitted → won or lost; back one step from reviewing or preparing; withdrawn from any open stage. api/bids/README.md lists the moves.',
});

const title = z
  .string({ error: 'must be the bid title as text' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(300, { error: 'must be at most 300 characters' })
  .regex(/^[^\p{Cc}]*$/u, { error: 'must not contain control characters such as line breaks' });

const goal = z
  .string({ error: 'must be text, or null to clear it' })
  .trim()
  .max(2000, { error: 'must be at most 2000 characters' })
  .openapi({ description: 'What the organisation wants from this bid, in its own words.' });

export const BidParams = z.object({
  bid: z.string().openapi({ param: { name: 'bid', in: 'path' }, description: 'The bid id (`bid_…`).', example: 'bid_3f2a9c0d5e6b7a81' }),
});

export const BidReadQuery = z.object({
  include: z
    .enum(['overview'], { error: 'must be overview, or left out' })
    .optional()
    .openapi({ param: { name: 'include', in: 'query' }, description: '`overview`: also everything the bid page shows, in one read.' }),
});

export const BidListQuery = z.object({
  org_id: z.string().optional().openapi({ param: { name: 'org_id', in: 'query' }, description: 'Only this organisation\'s bids; default every organisation of the caller.' }),
});

export const CreateBidBody = strictBody({
  org_id: z.string({ error: 'must be the id of an organisation you belong to (GET /v1/orgs lists them)' }),
  page_key: z
    .string({ error: 'must be a tender page_key as text' })
    .regex(/^f?[0-9a-f]{32}$/, { error: 'must be a tender page_key: 32 lowercase hex characters, or f and 32' })
    .optional()
    .openapi({ description: 'The tender this bid answers, by the page_key of a search result. Its title, buyer, closing date and the buyer\'s time zone are recorded.' }),
  title: title.optional().openapi({ description: 'The bid title; required without page_key, and replaces the tender\'s title when given with it.' }),
  due_date: calendarDate('The organisation\'s own due date for the response.').nullable().optional(),
  goal: goal.nullable().optional(),
}).refine((body) => body.page_key !== undefined || body.title !== undefined, { error: 'give page_key (a tender of the corpus) or title (a bid on a tender outside it)' });

export const PatchBidBody = strictBody({
  stage: StageSchema.optional(),
  goal: goal.nullable().optional(),
  owner: z
    .email({ error: 'must be the email address of a member of the bid\'s organisation, or null' })
    .nullable()
    .optional()
    .openapi({ description: 'Who leads the bid: the email address of a member of its organisation; null for nobody.' }),
  due_date: calendarDate('The organisation\'s own due date for the response.').nullable().optional(),
});

export const BidSchema = z
  .object({
    bid_id: z.string(),
    org_id: z.string(),
    company_name: z.string(),
    title: z.string(),
    tender_key: z.string().nullable().openapi({ description: 'The tender\'s page_key (GET /v1/tenders/{key}), or null for a free-title bid.' }),
    buyer: z.string().nullable(),
    jurisdiction: z.string().nullable(),
    closing_date: z.iso.date().nullable().openapi({ description: 'The tender\'s closing day in the buyer\'s time zone, as recorded when the bid was created.' }),
    closing_at: instant.nullable().openapi({ description: 'The closing instant when the source publishes a time.' }),
    buyer_time_zone: z.string().nullable().openapi({ description: 'The buyer\'s IANA time zone, which the plan schedules in.', example: 'Australia/Sydney' }),
    stage: StageSchema,
    next_stages: z.array(StageSchema).openapi({ description: 'The stages PATCH may move the bid to now; empty once it is final.' }),
    goal: z.string().nullable(),
    owner: z.object({ account_id: z.string(), email: z.string() }).nullable().openapi({ description: 'The member who leads the bid.' }),
    due_date: z.iso.date().nullable(),
    created_by: z.string().openapi({ description: 'Email address of the member who created it.' }),
    created_at: instant,
    updated_at: instant,
  })
  .openapi('Bid');

export const BidListSchema = z.object({ bids: z.array(BidSchema) }).openapi('BidList');

export const ThreadPostBody = strictBody({
  text: z
    .string({ error: 'must be the message as text' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(MAX_MESSAGE_CHARACTERS, { error: `must be at most ${MAX_MESSAGE_CHARACTERS} characters` })
    .openapi({ description: `The message, at most ${MAX_MESSAGE_CHARACTERS} characters.` }),
});

export const ThreadMessageSchema = z
  .object({
    message_id: z.string(),
    author: z.object({ account_id: z.string(), email: z.string() }).openapi({ description: 'The member who wrote it.' }),
    text: z.string(),
    run_id: z.string().nullable().openapi({ description: 'The run that posted it (in the name of the person who started the run); null for a person\'s own message.' }),
    created_at: instant,
  })
  .openapi('BidThreadMessage');

export const ThreadSchema = z.object({ messages: z.array(ThreadMessageSchema).openapi({ description: 'Oldest first.' }) }).openapi('BidThread');

export const ChatSchema = z
  .object({
    bid_id: z.string(),
    stage: StageSchema,
    next_stages: z.array(StageSchema),
    goal: z.string().nullable(),
    jobs: z.array(JobSchema).openapi({ description: 'Background jobs of the bid not yet finished (queued, running or waiting on a person), oldest first.' }),
    running: z.string().openapi({ description: 'What is running for the bid (the step and progress), or what last ran, as a sentence.' }),
    recap: z
      .object({
        files: z.number().int(),
        unreadable_files: z.number().int().openapi({ description: 'Files kept whose text could not be read.' }),
        pages_read: z.number().int(),
        thread_messages: z.number().int(),
        last_message: z.object({ author: z.string(), created_at: instant }).nullable(),
        requirements: z.number().int().openapi({ description: 'Requirements in force (not superseded or withdrawn).' }),
        mandatory_requirements: z.number().int(),
        mandatory_without_draft: z.number().int().openapi({ description: 'Mandatory requirements in force, not met or not applicable by a person, whose draft has neither a person\'s text nor a cited passage (the worth-bidding card counts the same).' }),
        drafts_by_people: z.number().int().openapi({ description: 'Drafts a person wrote; recompute never overwrites them.' }),
        open_gaps: z.number().int(),
        plan_tasks: z.number().int(),
        days_to_close: z.number().int().nullable().openapi({ description: "Days from today to the closing day, in the buyer's time zone; negative once closed." }),
        summary: z.string().openapi({ description: 'The recap as sentences to show a person.' }),
      })
      .openapi({ description: "Built from the bid's stored state: stage, dates, files, requirements, drafts, gaps, plan and thread." }),
  })
  .openapi('BidChat');
