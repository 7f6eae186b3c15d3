/**
 * The stages of a bid and the moves between them (api/bids/README.md describes them). A bid starts in
 * `qualifying` (deciding whether to bid), moves forward through `preparing` and `reviewing` to
 * `submitted`, and ends `won` or `lost`; it may step back from `reviewing` to `preparing` and from
 * `preparing` to `qualifying`, and be `withdrawn` from any open stage. The three closed stages are final.
 */
export const STAGES = ['qualifying', 'preparing', 'reviewing', 'submitted', 'won', 'lost', 'withdrawn'] as const;
export type Stage = (typeof STAGES)[number];

/** Where a bid starts. */
export const FIRST_STAGE: Stage = 'qualifying';

/** The stages each stage may move to; a stage absent from every list but its own is final. */
export const TRANSITIONS: Readonly<Record<Stage, readonly Stage[]>> = {
  qualifying: ['preparing', 'withdrawn'],
  preparing: ['reviewing', 'qualifying', 'withdrawn'],
  reviewing: ['submitted', 'preparing', 'withdrawn'],
  submitted: ['won', 'lost', 'withdrawn'],
  won: [],
  lost: [],
  withdrawn: [],
};

/** Whether a bid in this stage is still being worked on or awaiting its outcome. */
export function isOpenStage(stage: Stage): boolean {
  return TRANSITIONS[stage].length > 0;
}

/**
 * Why a bid may not move from `from` to `to`, as a sentence for a 409, or null when it may (staying in the
 * same stage is always allowed: a PATCH that repeats the stage changes nothing).
 */
export function transitionProblem(from: Stage, to: Stage): string | null {
  if (from === to || TRANSITIONS[from].includes(to)) return null;
  const allowed = TRANSITIONS[from];
  if (allowed.length === 0) return `The bid is ${from}, a final stage: it cannot move to ${to}. Create a new bid to respond again.`;
  return `A bid in the stage ${from} may move only to ${alternatives(allowed)}, not to ${to}.`;
}

/** Stages as a sentence lists choices: "reviewing, qualifying or withdrawn". */
export function alternatives(stages: readonly Stage[]): string {
  return stages.length <= 1 ? (stages[0] ?? 'nothing') : `${stages.slice(0, -1).join(', ')} or ${stages.at(-1)}`;
}
