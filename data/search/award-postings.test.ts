import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Postings, ScratchInts } from './award-postings.ts';

describe('scratch buffers of a query', () => {
  it('hands out separate buffers within a query and the same ones after a reset, never keeping a huge one', () => {
    const scratch = new ScratchInts();
    const first = scratch.take(10);
    const second = scratch.take(10);
    assert.notEqual(first.buffer, second.buffer, 'two lists of one query never share memory');
    scratch.reset();
    assert.equal(scratch.take(5).buffer, first.buffer, 'the next query reuses them');
    const huge = scratch.take(2_000_000);
    assert.equal(huge.length, 2_000_000);
    scratch.reset();
    scratch.take(1);
    assert.notEqual(scratch.take(2_000_000).buffer, huge.buffer, 'a list over 4 MB is not kept between queries');
  });

  it('merged prefix lists are right when read into reused buffers query after query', () => {
    const postings = Postings.fromKeys(['road', 'roadside', 'rock', 'water'], (key) => [Int32Array.of(1, 5), Int32Array.of(5, 9), Int32Array.of(2), Int32Array.of(3)][key]!);
    const scratch = new ScratchInts();
    const bits = new Uint32Array(1);
    for (let query = 0; query < 3; query += 1) {
      scratch.reset();
      assert.deepEqual([...postings.withPrefix('ro', 10, bits, scratch)], [1, 2, 5, 9]);
      assert.deepEqual([...postings.withPrefix('road', 10, bits, scratch)], [1, 5, 9]);
      assert.deepEqual([...postings.of('water', scratch)], [3]);
      assert.deepEqual([...bits], [0], 'the bitset is left zeroed');
    }
  });
});
