import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isOpenStage, STAGES, transitionProblem } from './stages.ts';

test('a bid moves forward one stage at a time, back one step while working, and is withdrawn from any open stage', () => {
  assert.equal(transitionProblem('qualifying', 'preparing'), null);
  assert.equal(transitionProblem('preparing', 'reviewing'), null);
  assert.equal(transitionProblem('reviewing', 'preparing'), null, 'rework after review');
  assert.equal(transitionProblem('reviewing', 'submitted'), null);
  assert.equal(transitionProblem('submitted', 'lost'), null);
  for (const stage of STAGES.filter(isOpenStage)) assert.equal(transitionProblem(stage, 'withdrawn'), null, stage);
  assert.equal(transitionProblem('preparing', 'preparing'), null, 'repeating the stage changes nothing');
});

test('skipping a stage or leaving a final one is refused with the allowed moves', () => {
  assert.equal(transitionProblem('qualifying', 'reviewing'), 'A bid in the stage qualifying may move only to preparing or withdrawn, not to reviewing.');
  assert.equal(transitionProblem('preparing', 'won'), 'A bid in the stage preparing may move only to reviewing, qualifying or withdrawn, not to won.');
  assert.match(transitionProblem('lost', 'preparing')!, /^The bid is lost, a final stage/);
  assert.deepEqual(STAGES.filter((stage) => !isOpenStage(stage)), ['won', 'lost', 'withdrawn']);
});
