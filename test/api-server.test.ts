import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeDataDir, seedRelease, sourceRow, tenderRow } from './helpers/seed-release.ts';

const SERVER = join(import.meta.dirname, '..', 'api', 'server.ts');

describe('npm run serve (the real server, end to end)', () => {
  let dataDir: string;

  before(async () => {
    dataDir = await makeDataDir();
    // Closing far ahead: the real server runs on the real clock.
    await seedRelease({
      dataDir,
      tenders: [tenderRow({ title: 'Stormwater upgrade', reference: 'SW-9', closing_date: '2099-12-31' })],
      sources: [sourceRow()],
      releaseId: 'release-e2e',
    });
  });

  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves /livez, /health and /v1/tenders on a random port and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [SERVER, '--data-dir', dataDir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000);
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (listening) {
            clearTimeout(timer);
            resolve(listening[1]!);
          }
        });
        child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
      });

      const livez = await fetch(`${url}/livez`);
      assert.equal(livez.status, 200);
      const health = (await (await fetch(`${url}/health`)).json()) as Record<string, unknown>;
      assert.equal(health.status, 'ok');
      assert.equal(health.release_id, 'release-e2e');
      assert.equal(typeof health.engine_version, 'string');

      const search = await fetch(`${url}/v1/tenders?q=stormwater`);
      assert.equal(search.status, 200);
      assert.match(search.headers.get('content-type') ?? '', /application\/json/);
      // Over a real socket the rate headers take the Node adapter's path (set on Node's own response).
      assert.equal(search.headers.get('RateLimit-Limit'), '20');
      assert.equal(search.headers.get('RateLimit-Remaining'), '20');
      assert.match(search.headers.get('RateLimit-Reset') ?? '', /^\d+$/);
      const refused = await fetch(`${url}/v1/tenders`, { headers: { authorization: 'Bearer svc_not-a-key' } });
      assert.equal(refused.status, 401);
      assert.equal(refused.headers.get('RateLimit-Limit'), '20', 'a refused key still gets the address\'s figures');
      const missing = await fetch(`${url}/v1/nowhere`);
      assert.equal(missing.status, 404);
      assert.equal(missing.headers.get('RateLimit-Limit'), '20');
      // A POST's headers are set once its reply is built (a metered route's reservation sets them before), still on Node's response.
      const posted = await fetch(`${url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"no"}' });
      assert.equal(posted.status, 422);
      assert.equal(posted.headers.get('RateLimit-Limit'), '20');
      assert.equal(posted.headers.get('RateLimit-Remaining'), '20');
      const body = (await search.json()) as { total: number; results: { title: string; open: boolean }[] };
      assert.equal(body.total, 1);
      assert.equal(body.results[0]!.title, 'Stormwater upgrade');
      assert.equal(body.results[0]!.open, true);

      const invalid = await fetch(`${url}/v1/tenders?limit=0`);
      assert.equal(invalid.status, 400);

      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      assert.equal(code, 0, output);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
