// api/checkers/README.md is kept true as data/README.md is: it names every registered checker, and every file
// its "Add a checker" recipe names exists (for `<name>`, in every checker's folder). The site's check page keeps
// its own list (the site imports nothing from api/): it offers exactly the registered checkers, as they take documents.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { checkers } from '../api/checkers/registry.ts';
import type { DocumentFormat } from '../api/documents/sniff.ts';
import { CHECKERS } from '../site/lib/checkers.ts';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const README = readFileSync(new URL('../api/checkers/README.md', import.meta.url), 'utf8');

function recipe(): string {
  const start = README.indexOf('## Add a checker');
  assert.notEqual(start, -1, 'api/checkers/README.md has an "Add a checker" section');
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end === -1 ? undefined : end);
}

test('api/checkers/README.md names every registered checker', () => {
  const unnamed = checkers.filter((checker) => !README.includes(`\`${checker.name}/\``)).map((checker) => checker.name);
  assert.deepEqual(unnamed, [], 'describe these checkers (as `<folder>/`) in api/checkers/README.md');
});

test('every file the "Add a checker" recipe names exists', () => {
  const paths = [...recipe().matchAll(/`([\w./<>-]+\/[\w.<>-]+\.(?:ts|md|json))`/g)].map((match) => match[1]!);
  assert.ok(paths.length > 5, 'the recipe names the files it asks for');
  const missing = paths.flatMap((path) =>
    path.includes('<name>') ? checkers.map((checker) => path.replace('<name>', checker.name)).filter((each) => !existsSync(REPO + each)) : existsSync(REPO + path) ? [] : [path],
  );
  assert.deepEqual(missing, [], 'the recipe names files that do not exist');
});

/** The formats the site's file picker offers, by extension. */
const FORMAT_OF_EXTENSION: Record<string, DocumentFormat> = {
  pdf: 'pdf', png: 'png', jpg: 'jpeg', jpeg: 'jpeg', webp: 'webp', bmp: 'bmp', tif: 'tiff', tiff: 'tiff', docx: 'docx', txt: 'text', text: 'text', md: 'text', html: 'html', htm: 'html',
};

test("the site's check page offers every checker, as its descriptor takes documents", () => {
  assert.deepEqual(CHECKERS.map((entry) => entry.path).sort(), checkers.map((checker) => checker.path).sort());
  for (const entry of CHECKERS) {
    const checker = checkers.find((candidate) => candidate.path === entry.path)!;
    assert.equal(entry.streams, checker.lane.kind !== 'direct', `${entry.id}: streams exactly when the checker's lane streams`);
    assert.equal(entry.maxFiles ?? 1, checker.intake?.maxDocuments ?? 1, `${entry.id}: files at once`);
    assert.equal(entry.inputs.includes('text'), checker.intake?.textField === true, `${entry.id}: pasted text exactly when the checker takes \`text\``);
    const offered = new Set((entry.accept ?? '').split(',').filter(Boolean).map((extension) => FORMAT_OF_EXTENSION[extension.slice(1)]));
    assert.deepEqual([...offered].sort(), [...(checker.intake?.accepts ?? [])].sort(), `${entry.id}: the file picker offers the formats the checker reads`);
  }
});
