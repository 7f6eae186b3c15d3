import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { schedulePlan } from './plan.ts';
import type { WorkspaceRequirement } from './workspace-requirement.ts';

const requirement = (id: string, kind: WorkspaceRequirement['kind'], mandatory: boolean): WorkspaceRequirement => ({
  requirement_id: id, ref: null, text: `Requirement ${id}`, kind, mandatory, state: 'open', weight: null,
});
const requirements = [requirement('req_1', 'criterion', true), requirement('req_2', 'criterion', false), requirement('req_3', 'schedule', true)];
const openGaps = [{ gap_key: 'credential:iso_9001', title: 'No ISO 9001 certification in the library', requirement_id: 'req_1' }];

describe('the bid plan', () => {
  it('back-schedules across the start of Sydney daylight saving: the wall-clock times stay, the UTC offsets change', () => {
    // Sydney moves from +10:00 to +11:00 at 02:00 on Sunday 4 October 2026.
    const tasks = schedulePlan({ closingDate: '2026-10-06', timeZone: 'Australia/Sydney', requirements, openGaps, ownerId: 'acct_owner' });
    const byId = Object.fromEntries(tasks.map((task) => [task.task_id, task]));
    assert.deepEqual(tasks.map((task) => task.task_id), ['gap:credential:iso_9001', 'drafts:criterion', 'drafts:schedule', 'compliance_check', 'final_review', 'lodge']);
    assert.deepEqual(byId['gap:credential:iso_9001'], {
      task_id: 'gap:credential:iso_9001', title: 'Close the gap: No ISO 9001 certification in the library', owner_id: 'acct_owner',
      due_at: '2026-09-29T07:00:00.000Z', due_local: '2026-09-29 17:00', depends_on: [],
    });
    assert.equal(byId['drafts:criterion']!.due_at, '2026-10-03T07:00:00.000Z', 'Saturday 3 October, still +10:00');
    assert.equal(byId['drafts:criterion']!.title, 'Finish the drafts of the 2 evaluation criteria (1 mandatory)');
    assert.deepEqual(byId['drafts:criterion']!.depends_on, ['gap:credential:iso_9001']);
    assert.deepEqual(byId['drafts:schedule']!.depends_on, []);
    assert.equal(byId['compliance_check']!.due_at, '2026-10-04T06:00:00.000Z', 'Sunday 4 October, now +11:00');
    assert.deepEqual(byId['compliance_check']!.depends_on, ['drafts:criterion', 'drafts:schedule']);
    assert.deepEqual([byId['final_review']!.due_local, byId['final_review']!.due_at], ['2026-10-05 12:00', '2026-10-05T01:00:00.000Z']);
    assert.deepEqual([byId['lodge']!.due_local, byId['lodge']!.due_at, byId['lodge']!.depends_on], ['2026-10-05 17:00', '2026-10-05T06:00:00.000Z', ['final_review']]);
  });

  it('schedules in New Zealand time for a New Zealand buyer', () => {
    // Auckland is on +13:00 (daylight time) in December.
    const tasks = schedulePlan({ closingDate: '2026-12-10', timeZone: 'Pacific/Auckland', requirements, openGaps: [], ownerId: null });
    const lodge = tasks.find((task) => task.task_id === 'lodge')!;
    assert.deepEqual([lodge.due_local, lodge.due_at, lodge.owner_id], ['2026-12-09 17:00', '2026-12-09T04:00:00.000Z', null]);
    assert.equal(tasks.some((task) => task.task_id.startsWith('gap:')), false);
  });
});
