import { addDays, zonedTimeToUtc } from '../../lib/jurisdictions.ts';
import type { StateDb } from '../../data/state/db.ts';
import type { StoredGap } from './gaps.ts';
import type { WorkspaceRequirement } from './workspace-requirement.ts';

/**
 * The bid plan: tasks back-scheduled from the tender's closing day in the buyer's time zone. Gaps are
 * closed first (a week before), then the drafts of each group of requirements (three days before), a
 * compliance check (two days before), and the final review and lodgement on the day before closing, so a
 * portal outage on the day does not sink the bid. Wall-clock times are the buyer's, across daylight saving.
 */

export interface PlanTask {
  task_id: string;
  title: string;
  owner_id: string | null;
  /** The instant it is due (ISO, UTC). */
  due_at: string;
  /** The same instant as the buyer's wall clock, `YYYY-MM-DD HH:MM`. */
  due_local: string;
  depends_on: string[];
}

export interface PlanInputs {
  /** The tender's closing day in the buyer's time zone (YYYY-MM-DD). */
  closingDate: string;
  timeZone: string;
  requirements: readonly WorkspaceRequirement[];
  /** Gaps still open (a gap marked NA or closed needs no task). */
  openGaps: readonly Pick<StoredGap, 'gap_key' | 'title' | 'requirement_id'>[];
  /** Who does the work: the bid's owner, or null. */
  ownerId: string | null;
}

const GAP_DAYS_BEFORE = 7;
const DRAFT_DAYS_BEFORE = 3;
const CHECK_DAYS_BEFORE = 2;
const END_OF_DAY = '17:00';

const GROUPS: readonly { kind: WorkspaceRequirement['kind']; name: string }[] = [
  { kind: 'condition', name: 'conditions of participation' },
  { kind: 'clause', name: 'clauses' },
  { kind: 'criterion', name: 'evaluation criteria' },
  { kind: 'schedule', name: 'returnable schedules' },
];

export function schedulePlan(inputs: PlanInputs): PlanTask[] {
  const { closingDate, timeZone, ownerId } = inputs;
  const due = (daysBefore: number, time: string) => {
    const day = addDays(closingDate, -daysBefore);
    return { due_at: zonedTimeToUtc(day, time, timeZone).toISOString(), due_local: `${day} ${time}` };
  };
  const tasks: PlanTask[] = [];
  const gapTaskOf = new Map<string, string[]>();
  for (const gap of inputs.openGaps) {
    const taskId = `gap:${gap.gap_key}`;
    tasks.push({ task_id: taskId, title: `Close the gap: ${gap.title}`, owner_id: ownerId, ...due(GAP_DAYS_BEFORE, END_OF_DAY), depends_on: [] });
    if (gap.requirement_id) gapTaskOf.set(gap.requirement_id, [...(gapTaskOf.get(gap.requirement_id) ?? []), taskId]);
  }
  const draftTasks: string[] = [];
  for (const group of GROUPS) {
    const members = inputs.requirements.filter((requirement) => requirement.kind === group.kind);
    if (members.length === 0) continue;
    const taskId = `drafts:${group.kind}`;
    draftTasks.push(taskId);
    const mandatory = members.filter((requirement) => requirement.mandatory).length;
    tasks.push({
      task_id: taskId,
      title: `Finish the drafts of the ${members.length} ${group.name}${mandatory > 0 ? ` (${mandatory} mandatory)` : ''}`,
      owner_id: ownerId,
      ...due(DRAFT_DAYS_BEFORE, END_OF_DAY),
      depends_on: [...new Set(members.flatMap((requirement) => gapTaskOf.get(requirement.requirement_id) ?? []))],
    });
  }
  tasks.push(
    { task_id: 'compliance_check', title: 'Check every mandatory requirement has a compliant, evidenced answer', owner_id: ownerId, ...due(CHECK_DAYS_BEFORE, END_OF_DAY), depends_on: draftTasks },
    { task_id: 'final_review', title: 'Final review of the whole response', owner_id: ownerId, ...due(1, '12:00'), depends_on: ['compliance_check'] },
    { task_id: 'lodge', title: "Lodge the response on the buyer's portal and keep the receipt", owner_id: ownerId, ...due(1, END_OF_DAY), depends_on: ['final_review'] },
  );
  return tasks;
}

interface TaskRow extends Omit<PlanTask, 'depends_on' | 'owner_id'> {
  depends_on: string;
  owner: string | null;
}

/** A task as served: its owner's email instead of the account id. */
export type ServedTask = Omit<PlanTask, 'owner_id'> & { owner: string | null };

export async function storePlan(state: StateDb, bidId: string, tasks: readonly PlanTask[], now: Date): Promise<void> {
  await state.transaction(async () => {
    await state.run('DELETE FROM bid_plan_tasks WHERE bid_id = ?', bidId);
    for (const [position, task] of tasks.entries()) {
      await state.run(
        `INSERT INTO bid_plan_tasks (bid_id, task_id, position, title, owner_id, due_at, due_local, depends_on, computed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        bidId, task.task_id, position, task.title, task.owner_id, task.due_at, task.due_local, JSON.stringify(task.depends_on), now.toISOString(),
      );
    }
  });
}

export async function listPlan(state: StateDb, bidId: string): Promise<ServedTask[]> {
  return (await state
    .all<TaskRow>(
      `SELECT t.task_id, t.title, a.email AS owner, t.due_at, t.due_local, t.depends_on FROM bid_plan_tasks t
       LEFT JOIN accounts a ON a.account_id = t.owner_id WHERE t.bid_id = ? ORDER BY t.position`,
      bidId,
    ))
    .map((row) => ({ ...row, depends_on: JSON.parse(row.depends_on) as string[] }));
}
