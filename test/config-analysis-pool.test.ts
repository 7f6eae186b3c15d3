import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { analysisPoolLimits } from '../lib/config.ts';

const NAMES = ['SVC_ANALYSIS_WORKERS', 'SVC_ANALYSIS_QUEUE', 'SVC_ANALYSIS_TIMEOUT_SECONDS', 'SVC_ANALYSIS_MEMORY_MB'] as const;
const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const name of NAMES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

test('the analysis pool\'s limits come from SVC_ANALYSIS_*; unset ones are left to the pool\'s defaults', () => {
  for (const name of NAMES) delete process.env[name];
  assert.deepEqual(analysisPoolLimits(), {});
  process.env.SVC_ANALYSIS_WORKERS = '3';
  process.env.SVC_ANALYSIS_QUEUE = '8';
  process.env.SVC_ANALYSIS_TIMEOUT_SECONDS = '1.5';
  process.env.SVC_ANALYSIS_MEMORY_MB = '256';
  assert.deepEqual(analysisPoolLimits(), { size: 3, queueLimit: 8, timeoutMs: 1500, memoryMb: 256 });
});

test('a pool limit that is not a positive number stops the server at start-up with the variable named', () => {
  process.env.SVC_ANALYSIS_WORKERS = '0';
  assert.throws(() => analysisPoolLimits(), /SVC_ANALYSIS_WORKERS must be a positive number/);
  process.env.SVC_ANALYSIS_WORKERS = '2';
  process.env.SVC_ANALYSIS_MEMORY_MB = '1.5';
  assert.throws(() => analysisPoolLimits(), /SVC_ANALYSIS_MEMORY_MB must be a whole number/);
});
