import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { misusedPromises } from '../scripts/misused-promises.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

test('the checker finds each kind of dropped or misread promise, and leaves handled ones and memos alone', () => {
  const dir = mkdtempSync(join(tmpdir(), 'promises-'));
  try {
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2024', module: 'nodenext', lib: ['es2024'], types: [] }, include: ['*.ts'] }));
    writeFileSync(join(dir, 'cases.ts'), `
const write = async (n: number): Promise<number> => n;
let memo: Promise<number> | undefined;
export async function cases(ids: number[]): Promise<void> {
  write(1);
  ids.find(async (id) => (await write(id)) > 1);
  ids.forEach(async (id) => { await write(id); });
  if (!write(2)) return;
  if (write(3)) return;
  const pick = write(4) ? 1 : 2;
  void write(5);
  await write(6);
  write(7).catch(() => undefined);
  write(8).then(() => undefined, () => undefined).finally(() => undefined);
  if (!memo) memo = write(pick);
}
`);
    const found = misusedPromises(dir).map(({ where, what }) => `${where.replace(/^.*:/, '')} ${what.split(':')[0]}`);
    assert.deepEqual(found, [
      '5 a promise nobody awaits',
      '6 an async callback given to find, which does not wait for it',
      '7 an async callback given to forEach, which does not wait for it',
      '8 a promise negated',
      '9 a promise as a condition',
      '10 a promise as a condition',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('no promise in the project is dropped or read as a value', () => {
  assert.deepEqual(misusedPromises(ROOT), []);
});
