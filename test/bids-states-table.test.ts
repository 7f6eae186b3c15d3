// The bid area's README maps every bid row of the spec's States table to a test; this fails when a test it names
// is not in the file it names (renamed or removed), so the table cannot drift from the tests.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = join(import.meta.dirname, '..');
const README = readFileSync(join(ROOT, 'api', 'bids', 'README.md'), 'utf8');

/** The rows of the README's States table: row, test file, test name. */
function statesRows(): { row: string; file: string; name: string }[] {
  const start = README.indexOf("## The spec's States rows for bids, and their tests");
  assert.ok(start >= 0, 'the README has the States table');
  const section = README.slice(start, README.indexOf('\n## ', start + 1));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| States row') && !line.startsWith('|---'))
    .map((line) => {
      const [row, file, name] = line.slice(2, -2).split(' | ');
      return { row: row!, file: file!.replaceAll('`', ''), name: name! };
    });
}

/** The names of the `it(…)` and `test(…)` tests a file declares, as written in single quotes (with `\'` unescaped). */
function testNames(file: string): Set<string> {
  const source = readFileSync(join(ROOT, file), 'utf8');
  return new Set([...source.matchAll(/\b(?:it|test)\('((?:[^'\\]|\\.)*)'/g)].map((match) => match[1]!.replace(/\\'/g, "'")));
}

describe("the spec's States rows for bids each have a test", () => {
  const rows = statesRows();

  it('lists every subject of the bid rows: action, checkout, gap and document fetch', () => {
    for (const subject of ['Bid action', 'Bid checkout', 'Bid gap', 'Bid document fetch']) assert.ok(rows.some((row) => row.row.startsWith(subject)), subject);
    assert.ok(rows.length >= 10);
  });

  it('names only tests that exist, in the files it names', () => {
    const missing = rows.filter((row) => !testNames(row.file).has(row.name)).map((row) => `${row.file}: ${row.name}`);
    assert.deepEqual(missing, []);
  });
});
