import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import source from './au_tenderlink.ts';
import { readFixtureMeta } from '../pipeline/fixture-meta.ts';
import { runNightly } from '../pipeline/nightly.ts';
import type { ProgressReporter } from '../pipeline/progress.ts';
import { crawlOnFixtures } from '../test/helpers/crawl-fixtures.ts';

const quiet: ProgressReporter = { stage() {}, sourceStarted() {}, sourceProgress() {}, sourceFinished() {}, done() {} };

test('Tenderlink is registered as login-walled with its reason', () => {
  assert.equal(source.access?.kind, 'login_walled');
  assert.match(source.access?.kind === 'login_walled' ? source.access.why : '', /login/);
});

test('crawling it requests nothing, not even robots.txt, and reports login_walled with the reason', async () => {
  const crawl = await crawlOnFixtures(source);
  assert.deepEqual(crawl.requests, []);
  assert.equal(crawl.refused, 'login_walled');
  assert.equal(crawl.diagnosis, source.access?.kind === 'login_walled' ? source.access.why : null);
  assert.equal(crawl.failed, false);
  assert.deepEqual(crawl.records, []);
  assert.equal(crawl.pages, 0);
});

test('the nightly run lists it as login_walled, with no records and the reason as its why', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'tenderlink-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const { manifest } = await runNightly({ dataDir, fixtures: true, registry: [source], progress: quiet });
  const [summary] = manifest.sources;
  assert.equal(manifest.sources.length, 1);
  assert.equal(summary?.status, 'login_walled');
  assert.equal(summary?.why, source.access?.kind === 'login_walled' ? source.access.why : null);
  assert.equal(summary?.records, 0);
});

test('its fixtures record nothing, and say why', async () => {
  const meta = await readFixtureMeta(source.id);
  assert.deepEqual(meta.files, []);
  assert.match(meta.provenance, /login/);
});
