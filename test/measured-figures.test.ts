import assert from 'node:assert/strict';
import { existsSync, globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { committedMeasured, MEASURED_DIR } from './helpers/measured.ts';
import { TRADE_MATCH } from '../data/intelligence/trades.ts';

/**
 * Figures the documentation quotes are the ones the corpus tests computed: a README sentence quotes a
 * figure with a marker after it, `0.93<!--measured:extract-real-invoices/total-->` (or a percentage,
 * `97.9%<!--measured:…-->` for 0.979), and its floor the same way, `0.90<!--floor:extract-real-invoices/total-->`
 * (a ceiling, `5%<!--ceiling:…-->`). This test fails when the number differs from measured/<name>.json, when
 * a marker names a file or figure that does not exist, and when a number beside a quality word (precision,
 * recall, accuracy, AUROC, floor, ceiling) carries no marker at all: a figure from an earlier measurement,
 * quoted as history, says so with `<!--earlier-->`, and a floor an issue set that no test holds yet names the
 * issue, `0.95<!--issue:26-->`.
 */

const ROOT = join(import.meta.dirname, '..');
const MARKER = /(\d[\d,]*(?:\.\d+)?)(%?)<!--(measured|floor|ceiling):([\w.-]+)\/([\w.-]+)-->/g;
/** A ratio, a percentage or a count out of a whole; not a setting such as "confidence 0.9" or "threshold 0.5". */
const FIGURE = /(?<![\w.,/])(?<!(?:confidence|threshold) (?:≥ |>= )?)(?:\d+\/\d+|\d+(?:\.\d+)?%|[01]\.\d+)(?![\w/]|\.\d)/g;
const QUALITY_WORD = /\b(?:precision|recall|accuracy|AUROC|floors?|ceiling)\b/gi;
/** How far after a quality word a figure is taken as its figure. */
const REACH = 60;

const documents = ['README.md', ...globSync('{api,data,pipeline,sources,site,lib,bench,measured}/**/README.md', { cwd: ROOT })];
const readme = (document: string) => readFileSync(join(ROOT, document), 'utf8');

function expectedValue(kind: string, name: string, figure: string): number | string {
  if (!existsSync(join(MEASURED_DIR, `${name}.json`))) return `measured/${name}.json does not exist`;
  const measured = committedMeasured(name);
  const value = kind === 'measured' ? measured.figures[figure] : measured.floors[kind === 'ceiling' ? `max:${figure}` : figure];
  return value ?? `measured/${name}.json has no ${kind === 'measured' ? 'figure' : kind} ${figure}`;
}

test('every figure the READMEs quote from a measurement, and every floor, is the measured one', () => {
  let quoted = 0;
  const wrong: string[] = [];
  for (const document of documents) {
    for (const [, printed, percent, kind, name, figure] of readme(document).matchAll(MARKER)) {
      quoted++;
      const value = expectedValue(kind!, name!, figure!);
      if (typeof value === 'string') {
        wrong.push(`${document}: ${value}`);
        continue;
      }
      const shown = Number(printed!.replace(/,/g, ''));
      const decimals = printed!.split('.')[1]?.length ?? 0;
      const expected = Number(((percent === '%' ? value * 100 : value)).toFixed(decimals));
      if (shown !== expected) wrong.push(`${document}: quotes ${printed}${percent} for ${kind} ${name}/${figure}, measured ${value}`);
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(quoted > 0, 'no README quotes a measured figure');
  console.log(`${quoted} quoted figures and floors checked against measured/`);
});

test('no README quotes a quality figure without saying where it was measured', () => {
  const unmarked: string[] = [];
  for (const document of documents) {
    const text = readme(document);
    const wordEnds = [...text.matchAll(QUALITY_WORD)].map((word) => word.index + word[0].length);
    for (const figure of text.matchAll(FIGURE)) {
      if (!wordEnds.some((end) => end <= figure.index && figure.index - end <= REACH)) continue;
      if (/^<!--(?:measured:|floor:|ceiling:|earlier-->|issue:\d+-->)/.test(text.slice(figure.index + figure[0].length))) continue;
      unmarked.push(`${document}:${text.slice(0, figure.index).split('\n').length}: ${figure[0]}`);
    }
  }
  assert.deepEqual(unmarked, [], 'mark each with <!--measured:name/figure-->, <!--floor:name/figure-->, <!--issue:N--> or, for history, <!--earlier-->');
});

test('the API serves the measured trade figures', () => {
  const { titles, precision, recall } = committedMeasured('trades').figures;
  assert.deepEqual(TRADE_MATCH.measured, { titles, precision, recall });
});
