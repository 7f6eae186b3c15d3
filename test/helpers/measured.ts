import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

/**
 * Figures the corpus tests measure, kept in `measured/<name>.json` (committed), so the README and the API
 * quote what a test computed rather than what someone typed. A test measures its figures and calls
 * `recordMeasured`: a run whose figures differ from the committed file fails (say what changed and why in the
 * commit that updates it: run with `UPDATE_MEASURED=1` to write the new figures; that run fails too, so no run
 * passes against what it just wrote, and the next run compares). Each floor is checked here
 * too, so a figure below its floor fails whatever the file says. README sentences quote a figure with a
 * marker after it, `0.93<!--measured:extract-real-invoices/total-->`, which test/measured-figures.test.ts checks
 * (measured/README.md says how).
 */

export interface Measured {
  /** What was measured on: the corpus folder and how many documents. */
  corpus: string;
  /** How the ground truth was made, in a sentence. */
  truth: string;
  /** Each figure, rounded to three decimals when stored (counts stay whole). */
  figures: Record<string, number>;
  /** Floors the issue sets, by figure name: a figure below its floor fails the test. `max:` names a ceiling instead (`max:false_flags`). */
  floors?: Record<string, number>;
}

export const MEASURED_DIR = join(import.meta.dirname, '..', '..', 'measured');

function rounded(figures: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(figures).map(([name, value]) => [name, Number.isInteger(value) ? value : Math.round(value * 1000) / 1000]));
}

/**
 * Checks the floors on the unrounded figures (0.8996 must not pass a floor of 0.9 by rounding), then compares the
 * rounded figures with `measured/<name>.json` (under UPDATE_MEASURED=1, rewrites a differing file and fails).
 */
export function recordMeasured(name: string, measured: Measured): void {
  const figures = rounded(measured.figures);
  for (const [key, floor] of Object.entries(measured.floors ?? {})) {
    const ceiling = key.startsWith('max:');
    const figure = measured.figures[ceiling ? key.slice(4) : key];
    assert.ok(figure !== undefined, `${name}: the floor ${key} names no figure`);
    assert.ok(ceiling ? figure <= floor : figure >= floor, `${name}: ${key.replace(/^max:/, '')} is ${figure}, ${ceiling ? 'above its ceiling' : 'below its floor'} ${floor}`);
  }
  const file = join(MEASURED_DIR, `${name}.json`);
  const next = { corpus: measured.corpus, truth: measured.truth, figures, floors: measured.floors ?? {} };
  const text = `${JSON.stringify(next, null, 2)}\n`;
  const committed = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as typeof next) : null;
  if (process.env['UPDATE_MEASURED'] === '1' && !isDeepStrictEqual(next, committed)) {
    writeFileSync(file, text);
    assert.fail(`${name}: UPDATE_MEASURED=1 wrote measured/${name}.json; review the diff, then run again without UPDATE_MEASURED to compare`);
  }
  assert.ok(committed !== null, `${name}: no committed figures at measured/${name}.json; run with UPDATE_MEASURED=1 to write them`);
  assert.deepEqual(next, committed, `${name}: the measured figures differ from measured/${name}.json; if the change is intended, run with UPDATE_MEASURED=1 and commit the file with the reason`);
}

/** The committed figures of a measurement (for the README check and the API's capability figures). */
export function committedMeasured(name: string): { corpus: string; truth: string; figures: Record<string, number>; floors: Record<string, number> } {
  return JSON.parse(readFileSync(join(MEASURED_DIR, `${name}.json`), 'utf8'));
}
