import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ReadTextResult } from '../../checkers/read-text.ts';
import type { AnalysisOutcome, AnalysisPool, AnalysisRequest } from '../../checkers/_runner/pool.ts';
import { DocumentLibrary } from '../../orgs/documents.ts';
import { createOrg } from '../../orgs/orgs.ts';
import { tempDir } from '../../../test/helpers/temp-dir.ts';
import { libraryTexts } from './library-text.ts';
import { openTestState } from '../../../test/helpers/state.ts';

/** A pool that answers each read with the next outcome given, and counts the reads. */
function scriptedPool(outcomes: AnalysisOutcome<ReadTextResult>[]): AnalysisPool & { requests: AnalysisRequest[] } {
  const requests: AnalysisRequest[] = [];
  return {
    requests,
    run: async <Result>(request: AnalysisRequest) => {
      requests.push(request);
      return outcomes.shift() as AnalysisOutcome<Result>;
    },
    load: () => ({ running: 0, queued: 0 }),
    residentBytes: () => [],
    close: async () => {},
  };
}

const readOk = (text: string): AnalysisOutcome<ReadTextResult> => ({
  ok: true,
  ms: 1,
  result: { documents: [{ sha256: 'x', filename: null, kind: 'text', page_count: 1, ocr_used: false, pages: [{ page: 1, text, source: 'text_layer' }] }] },
});

describe('library document text', () => {
  it('reads each document once and keeps it; a reading that timed out is tried again, not kept', async () => {
    const dir = await tempDir('library-text-');
    const state = await openTestState();
    const now = new Date('2026-06-10T00:00:00Z');
    await state.run("INSERT INTO accounts (account_id, email, created_at) VALUES ('acct_1', 'owner@harbour.test', ?)", now.toISOString());
    const { org_id: orgId } = await createOrg(state, 'acct_1', 'Harbour Civil Pty Ltd', now);
    const library = new DocumentLibrary(state, join(dir, 'documents'));
    await library.add({ orgId, accountId: 'acct_1', filename: 'Capability.txt', contentType: 'text/plain', bytes: new TextEncoder().encode('Traffic management on arterial roads.'), now });
    const pool = scriptedPool([
      { ok: false, failure: 'timeout', detail: 'The analysis took longer than 60 s.', ms: 60_000 },
      readOk('Traffic management on arterial roads.'),
    ]);

    const first = await libraryTexts(state, library, orgId, pool, now);
    assert.deepEqual(first.map((text) => text.pages), [[]]);
    const second = await libraryTexts(state, library, orgId, pool, now);
    assert.deepEqual(second.map((text) => text.pages), [[{ n: 1, text: 'Traffic management on arterial roads.' }]]);
    const third = await libraryTexts(state, library, orgId, pool, now);
    assert.deepEqual(third.map((text) => text.pages), [[{ n: 1, text: 'Traffic management on arterial roads.' }]]);
    assert.equal(pool.requests.length, 2, 'read again after the time-out, then kept');
    assert.equal(pool.requests[1]!.analysis, 'read_text');
    await state.close();
  });
});
