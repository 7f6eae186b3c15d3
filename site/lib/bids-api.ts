// The organisation and bid pages' view of the API: the fields each page shows, read through schemas (a
// reply that does not fit becomes a sentence, as in account-api.ts), the pages' addresses, and file uploads
// that report their progress.
import * as z from 'zod/mini';
import type { Reply } from './account-api.ts';

export const ORGS_PATH = '/account/orgs/';
export const BIDS_PATH = '/account/bids/';

/** An organisation's page: its profile, members, invitations and document library. */
export function orgPath(orgId: string): string {
  return `${ORGS_PATH}org/?id=${encodeURIComponent(orgId)}`;
}

/** A bid's page. */
export function bidPath(bidId: string): string {
  return `${BIDS_PATH}bid/?id=${encodeURIComponent(bidId)}`;
}

/** The bid list with its create form filled in for a tender of the corpus. */
export function prepareBidPath(pageKey: string): string {
  return `${BIDS_PATH}?tender=${encodeURIComponent(pageKey)}`;
}

/** The id a page of one organisation or bid is for, from its address (`?id=`), or null. */
export function idFromAddress(): string | null {
  const id = new URLSearchParams(location.search).get('id');
  return id && id.trim() ? id.trim() : null;
}

/** Organisation roles, highest first, as the API names them (its roles table is in the README). */
export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
const Role = z.enum(ROLES);

export const Membership = z.object({ org_id: z.string(), company_name: z.string(), role: Role, joined_at: z.string() });
export type Membership = z.infer<typeof Membership>;
export const MembershipList = z.object({ orgs: z.array(Membership) });
export const Member = z.object({ account_id: z.string(), email: z.string(), role: Role, joined_at: z.string() });
export type Member = z.infer<typeof Member>;
export const MemberList = z.object({ members: z.array(Member) });
export const Invitation = z.object({ email: z.string(), role: Role, expires_at: z.string() });

export const Profile = z.object({
  org_id: z.string(),
  company_name: z.string(),
  abn: z.nullable(z.string()),
  region: z.nullable(z.string()),
  description: z.nullable(z.string()),
  updated_at: z.string(),
});
export type Profile = z.infer<typeof Profile>;

export const LibraryDocument = z.object({
  doc_id: z.string(),
  filename: z.string(),
  size_bytes: z.number(),
  uploaded_by: z.string(),
  uploaded_at: z.string(),
  expires_on: z.nullable(z.string()),
});
export type LibraryDocument = z.infer<typeof LibraryDocument>;
export const DocumentList = z.object({ documents: z.array(LibraryDocument) });
export const DocumentDeleted = z.object({ doc_id: z.string(), deleted: z.literal(true) });

export const Bid = z.object({
  bid_id: z.string(),
  org_id: z.string(),
  company_name: z.string(),
  title: z.string(),
  tender_key: z.nullable(z.string()),
  buyer: z.nullable(z.string()),
  jurisdiction: z.nullable(z.string()),
  closing_date: z.nullable(z.string()),
  closing_at: z.nullable(z.string()),
  buyer_time_zone: z.nullable(z.string()),
  stage: z.string(),
  next_stages: z.array(z.string()),
  goal: z.nullable(z.string()),
  owner: z.nullable(z.object({ email: z.string() })),
  due_date: z.nullable(z.string()),
  created_by: z.string(),
  created_at: z.string(),
});
export type Bid = z.infer<typeof Bid>;
export const BidList = z.object({ bids: z.array(Bid) });

export const TenderNamed = z.object({
  page_key: z.string(),
  title: z.string(),
  buyer: z.optional(z.nullable(z.string())),
  jurisdiction: z.optional(z.string()),
  closing_date: z.optional(z.nullable(z.string())),
  value_text: z.optional(z.string()),
});
export type TenderNamed = z.infer<typeof TenderNamed>;
/** GET /v1/tenders?q=: the matches a bid form offers to choose from. */
export const TenderMatches = z.object({ total: z.number(), results: z.array(TenderNamed) });

/**
 * A tender's JSON twin: the API's reply for it (GET /v1/tenders/{key}) as the site published it beside its
 * page. A static file, so reading it is no API call and never meets the burst guard.
 */
export function tenderTwinPath(pageKey: string): string {
  return `/tenders/${encodeURIComponent(pageKey)}.json`;
}

export const BidFile = z.object({
  file_id: z.string(),
  filename: z.string(),
  kind: z.string(),
  size_bytes: z.number(),
  page_count: z.number(),
  pages_read: z.number(),
  read_status: z.enum(['read', 'failed']),
  read_detail: z.nullable(z.string()),
  uploaded_by: z.string(),
  uploaded_at: z.string(),
});
export type BidFile = z.infer<typeof BidFile>;
export const BidFileList = z.object({ files: z.array(BidFile) });
export const FileLink = z.object({ url: z.string(), expires_at: z.string() });
export const FilePage = z.object({ n: z.number(), page_count: z.number(), text: z.string(), source: z.string() });

export const Requirement = z.object({
  requirement_id: z.string(),
  ref: z.nullable(z.string()),
  text: z.string(),
  kind: z.string(),
  mandatory: z.boolean(),
  state: z.string(),
  weight: z.nullable(z.number()),
  source: z.nullable(z.object({ file_id: z.string(), page: z.number() })),
  confidence: z.number(),
});
export type Requirement = z.infer<typeof Requirement>;
export const RequirementList = z.object({ requirements: z.array(Requirement) });

export const Citation = z.object({ n: z.number(), document: z.string(), page: z.nullable(z.number()) });
export const Draft = z.object({
  requirement_id: z.string(),
  text: z.string(),
  origin: z.enum(['assembled', 'model', 'person']),
  note: z.string(),
  citations: z.array(Citation),
  edited_by: z.nullable(z.string()),
  updated_at: z.string(),
});
export type Draft = z.infer<typeof Draft>;
export const DraftList = z.object({ drafts: z.array(Draft) });

export const Partner = z.object({ partner_id: z.string(), name: z.string(), summary: z.string(), website: z.string() });
export const Gap = z.object({
  gap_id: z.string(),
  kind: z.string(),
  category: z.string(),
  region: z.nullable(z.string()),
  title: z.string(),
  detail: z.string(),
  status: z.enum(['open', 'closed', 'NA']),
  na_reason: z.nullable(z.string()),
  partners: z.array(Partner),
});
export type Gap = z.infer<typeof Gap>;
export const GapList = z.object({ gaps: z.array(Gap), counts: z.record(z.string(), z.number()) });

export const PlanTask = z.object({ task_id: z.string(), title: z.string(), owner: z.nullable(z.string()), due_at: z.string(), depends_on: z.array(z.string()) });
export const Plan = z.object({ time_zone: z.nullable(z.string()), closing_date: z.nullable(z.string()), tasks: z.array(PlanTask) });
export type Plan = z.infer<typeof Plan>;
export const Recomputed = z.object({ requirements: z.number(), drafts: z.number(), open_gaps: z.number(), plan: Plan });

export const ThreadMessage = z.object({ message_id: z.string(), author: z.object({ email: z.string() }), text: z.string(), created_at: z.string() });
export const Thread = z.object({ messages: z.array(ThreadMessage) });

export const WorthBidding = z.object({
  tender_key: z.nullable(z.string()),
  buyer: z.nullable(z.object({
    name: z.string(),
    award_count: z.number(),
    median_value: z.nullable(z.number()),
    value_currency: z.nullable(z.string()),
    recent_suppliers: z.array(z.string()),
  })),
  similar_work: z.nullable(z.object({
    rule: z.string(),
    keywords: z.array(z.string()),
    award_count: z.number(),
    value_min: z.nullable(z.number()),
    value_max: z.nullable(z.number()),
    value_currency: z.nullable(z.string()),
  })),
  incumbent: z.nullable(z.object({
    supplier: z.nullable(z.string()),
    contract_title: z.string(),
    end_date: z.nullable(z.string()),
    value_amount: z.nullable(z.number()),
    value_currency: z.nullable(z.string()),
  })),
  checks: z.object({ days_to_close: z.nullable(z.number()), mandatory_without_draft: z.number(), open_gaps: z.number() }),
});
export type WorthBidding = z.infer<typeof WorthBidding>;

export const Checkout = z.object({
  checkout_id: z.string(),
  status: z.enum(['pending', 'paid', 'expired', 'failed']),
  url: z.nullable(z.string()),
  amount: z.number(),
  currency: z.string(),
  expires_at: z.string(),
  paid_at: z.nullable(z.string()),
});
export type Checkout = z.infer<typeof Checkout>;
export const Payment = z.object({
  paid: z.boolean(),
  available: z.boolean(),
  detail: z.string(),
  checkout: z.nullable(Checkout),
});
export type Payment = z.infer<typeof Payment>;

export const PackFetch = z.object({
  fetch_id: z.string(),
  state: z.enum(['queued', 'running', 'succeeded', 'failed']),
  detail: z.nullable(z.string()),
  file_ids: z.array(z.string()),
});
export const PackFetchPart = z.object({
  offer: z.object({ available: z.boolean(), portal: z.string(), detail: z.string() }),
  last_fetch: z.nullable(PackFetch),
});
export type PackFetchPart = z.infer<typeof PackFetchPart>;

const RunState = z.enum(['queued', 'running', 'waiting', 'completed', 'stopped', 'failed']);
export type RunState = z.infer<typeof RunState>;
const Progress = z.object({ done: z.number(), total: z.nullable(z.number()) });

/** The overview's run part: the latest run, the actions waiting for a person (in words), those decided, the latest run's findings. */
export const OverviewRun = z.object({
  latest: z.nullable(z.object({
    run_id: z.string(),
    state: RunState,
    step: z.nullable(z.string()),
    progress: Progress,
    stop_requested: z.boolean(),
    error: z.nullable(z.string()),
    last_seq: z.number(),
    started_at: z.string(),
    ended_at: z.nullable(z.string()),
  })),
  pending_actions: z.array(z.object({ action_id: z.string(), kind: z.string(), title: z.string(), waits: z.boolean(), in_words: z.array(z.string()), created_at: z.string() })),
  decided_actions: z.array(z.object({ action_id: z.string(), kind: z.string(), title: z.string(), state: z.enum(['approved', 'rejected']), decided_by: z.nullable(z.string()), decided_at: z.string(), came_to: z.string() })),
  findings: z.number(),
});
export type OverviewRun = z.infer<typeof OverviewRun>;

/** GET …/runs/quote: what a run does, and whether the bid is paid. */
export const RunQuote = z.object({ paid: z.boolean(), steps: z.array(z.string()), actions: z.array(z.string()), language_model: z.nullable(z.string()) });
/** POST …/runs and …/runs/{run}/stop: the run. */
export const Run = z.object({ run_id: z.string(), state: RunState, step: z.nullable(z.string()), progress: Progress, stop_requested: z.boolean(), last_seq: z.number() });
export type Run = z.infer<typeof Run>;
export const Finding = z.object({ finding_id: z.string(), run_id: z.string(), kind: z.string(), requirement_id: z.nullable(z.string()), title: z.string(), detail: z.string() });
export type Finding = z.infer<typeof Finding>;
export const FindingList = z.object({ findings: z.array(Finding), next_since_seq: z.number() });
export const ActionDecided = z.object({ action: z.object({ action_id: z.string(), state: z.string() }) });

/** GET /v1/bids/{bid}?include=overview: the bid and everything its page shows, in one call. */
export const BidOverview = z.extend(Bid, {
  overview: z.object({
    role: Role,
    may_write: z.boolean(),
    files: z.array(BidFile),
    requirements: z.array(Requirement),
    drafts: z.array(Draft),
    gaps: GapList,
    plan: Plan,
    thread: z.array(ThreadMessage),
    worth_bidding: z.object({ ready: z.boolean(), card: z.optional(WorthBidding), detail: z.optional(z.string()) }),
    payment: Payment,
    pack_fetch: PackFetchPart,
    run: OverviewRun,
  }),
});
export type BidOverview = z.infer<typeof BidOverview>;

/** GET /v1/orgs/{org}: the membership, profile, members and documents, in one call. */
export const OrgOverview = z.extend(Membership, { profile: Profile, members: z.array(Member), documents: z.array(LibraryDocument) });

const ErrorReply = z.object({ detail: z.string() });

/**
 * Sends `file` as the multipart field `file` to `path` (POST, same origin, with the session cookie),
 * calling `progress` with the share sent (0 to 1) as it goes; reads the reply with `schema`. Never throws.
 */
export function uploadFile<T>(schema: z.ZodMiniType<T>, path: string, file: File, progress: (sent: number) => void): Promise<Reply<T>> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open('POST', path);
    request.withCredentials = true;
    request.setRequestHeader('accept', 'application/json');
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) progress(event.loaded / event.total);
    });
    request.addEventListener('error', () => resolve({ ok: false, status: 0, detail: 'The upload did not reach the service. Check your connection and try again.' }));
    request.addEventListener('load', () => {
      let body: unknown;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = undefined;
      }
      if (request.status < 200 || request.status >= 300) {
        const refusal = ErrorReply.safeParse(body);
        resolve({ ok: false, status: request.status, detail: refusal.success ? refusal.data.detail : `The service answered ${request.status}. Try again in a minute.` });
        return;
      }
      const read = schema.safeParse(body);
      resolve(read.success ? { ok: true, value: read.data } : { ok: false, status: request.status, detail: 'The service sent a reply this page cannot read. Reload the page and try again.' });
    });
    const form = new FormData();
    form.append('file', file);
    request.send(form);
  });
}
