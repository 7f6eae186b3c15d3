import assert from 'node:assert/strict';
import { existsSync, globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MEASURED_DIR } from './helpers/measured.ts';

/**
 * Figures the documentation quotes are the ones the corpus tests computed: a README sentence quotes a
 * figure with a marker after it, `0.93<!--measured:extract-invoices/total-->` (or a percentage,
 * `97.9%<!--measured:…-->` for 0.979), and this test fails when the number differs from measured/<name>.json,
 * or the marker names a file or figure that does not exist.
 */

const ROOT = join(import.meta.dirname, '..');
const MARKER = /(\d[\d,]*(?:\.\d+)?)(%?)<!--measured:([\w.-]+)\/([\w.-]+)-->/g;

test('every figure the READMEs quote from a measurement is the measured one', () => {
  const documents = ['README.md', ...globSync('{api,data,pipeline,sources,site,lib,bench,measured}/**/README.md', { cwd: ROOT })];
  let quoted = 0;
  const wrong: string[] = [];
  for (const document of documents) {
    const text = readFileSync(join(ROOT, document), 'utf8');
    for (const [, printed, percent, name, figure] of text.matchAll(MARKER)) {
      quoted++;
      const file = join(MEASURED_DIR, `${name}.json`);
      if (!existsSync(file)) {
        wrong.push(`${document}: measured/${name}.json does not exist`);
        continue;
      }
      const figures = (JSON.parse(readFileSync(file, 'utf8')) as { figures: Record<string, number> }).figures;
      const value = figures[figure!];
      if (value === undefined) {
        wrong.push(`${document}: measured/${name}.json has no figure ${figure}`);
        continue;
      }
      const shown = Number(printed!.replace(/,/g, ''));
      const decimals = printed!.split('.')[1]?.length ?? 0;
      const expected = Number(((percent === '%' ? value * 100 : value)).toFixed(decimals));
      if (shown !== expected) wrong.push(`${document}: quotes ${printed}${percent} for ${name}/${figure}, measured ${value}`);
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(quoted > 0, 'no README quotes a measured figure');
  console.log(`${quoted} quoted figures checked against measured/`);
});
