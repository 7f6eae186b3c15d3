import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { promisify } from 'node:util';

const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * The document engines (pdfjs and its canvas, sharp, tesseract.js, exifr) run in the analysis threads. Loaded in
 * the API's main thread they cost about 30 MB of resident memory that no request there uses (issue 13's memory
 * goal), and a static import anywhere on the route modules' graph is enough to load them. This builds the whole
 * app in a fresh process and lists what it loaded.
 */
const PROBE = `
import { registerHooks } from 'node:module';
const loaded = new Set();
registerHooks({ resolve(specifier, context, next) { const resolved = next(specifier, context); loaded.add(resolved.url); return resolved; } });
const { createApp } = await import('./api/app.ts');
const { openStateDb } = await import('./data/state/db.ts');
const app = await createApp({ store: { state: () => ({ ready: false, detail: 'No release in this probe.' }), now: () => new Date() }, state: await openStateDb(':memory:') });
await app.request('/livez');
process.stdout.write(JSON.stringify([...loaded]));
process.exit(0);
`;

test('building the app loads no document engine in the main thread', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', './lib/node-guard.mjs', '--input-type=module', '--eval', PROBE], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 });
  const loaded = JSON.parse(stdout) as string[];
  assert.ok(loaded.some((url) => url.endsWith('/api/app.ts')), 'the probe built the app');
  // A package.json read for a version number loads no engine.
  const engines = loaded.filter((url) => /\/node_modules\/(pdfjs-dist|sharp|@napi-rs\/canvas|tesseract\.js|exifr|pdf-lib|mammoth)\//.test(url) && !url.endsWith('/package.json'));
  assert.deepEqual(engines, [], `loaded in the main thread: ${engines.join(', ')}`);
});
