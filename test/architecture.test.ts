import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { backArrows, CODE_FOLDERS, fileCycles, importEdges, REPOSITORY_RULES, sourceFiles, type ImportRules } from '../scripts/import-arrows.ts';
import { longFunctions, type LongFunction } from '../scripts/long-functions.ts';
import { tempDir } from './helpers/temp-dir.ts';

/** The folders held to the size rule (issue 25): no function over 80 lines. */
const SIZE_RULED = ['api/checkers', 'api/bids', 'api/documents', 'api/routes', 'pipeline'];
const SIZE_LIMIT = 80;

/**
 * True when the comment right above a function says it is an interpreter: a function whose length is the grammar
 * it reads (one branch per operator of a format), which splitting would only scatter.
 */
function isInterpreter(found: LongFunction, root = '.'): boolean {
  const lines = readFileSync(join(root, found.file), 'utf8').split('\n');
  const comment: string[] = [];
  for (let at = found.line - 2; at >= 0; at--) {
    const line = lines[at]!.trim();
    if (!/^(\/\/|\/\*|\*)/.test(line)) break;
    comment.push(line);
  }
  return /\binterpreter\b/i.test(comment.join(' '));
}

function oversized(folders: string[], root = '.'): LongFunction[] {
  return longFunctions(folders.map((folder) => join(root, folder)), SIZE_LIMIT)
    .map((found) => ({ ...found, file: root === '.' ? found.file : found.file.slice(root.length + 1) }))
    .filter((found) => !isInterpreter(found, root));
}

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

describe('architecture', () => {
  const edges = importEdges('.', sourceFiles('.', CODE_FOLDERS));

  test('no import runs back up: the folders of DESIGN §3 and the layers of api/README.md', () => {
    const violations = backArrows(edges, REPOSITORY_RULES).map(({ edge, rule }) => `${edge.from} → ${edge.to} (${rule})`);
    assert.deepEqual(violations, [], `imports against the layering:\n${violations.join('\n')}`);
  });

  test('no file import cycle', () => {
    const cycles = fileCycles(edges).map((cycle) => cycle.join(' ↔ '));
    assert.deepEqual(cycles, [], `file import cycles:\n${cycles.join('\n')}`);
  });

  test(`no function over ${SIZE_LIMIT} lines in ${SIZE_RULED.join(', ')} but an interpreter that says so`, () => {
    const found = oversized(SIZE_RULED).map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
    assert.deepEqual(found, [], `functions over ${SIZE_LIMIT} lines:\n${found.join('\n')}`);
  });

  test('the checks fail on a back-arrow, a forbidden folder, a cycle and a long function', async () => {
    const root = await tempDir('architecture-');
    const longBody = Array.from({ length: 85 }, (_, i) => `  total += ${i};`).join('\n');
    await writeTree(root, {
      'lib/clock.ts': "import { route } from '../api/routes/page.ts';\nexport const now = () => route;\n",
      'api/routes/page.ts': "import { read } from '../documents/read.ts';\nexport const route = read;\n",
      'api/documents/read.ts': "import type { route } from '../routes/page.ts';\nexport const read = 1;\nexport type Route = typeof route;\n",
      'api/documents/a.ts': "import { b } from './b.ts';\nexport const a = b;\n",
      'api/documents/b.ts': "export { a as b } from './a.ts';\n",
      'api/documents/read.test.ts': "import { route } from '../routes/page.ts';\nvoid route;\n",
      'pipeline/long.ts': `export function long(): number {\n  let total = 0;\n${longBody}\n  return total;\n}\n`,
      'pipeline/grammar.ts': `// An interpreter of a made-up grammar: its length is the grammar.\nexport function grammar(): number {\n  let total = 0;\n${longBody}\n  return total;\n}\n`,
    });
    const rules: ImportRules = { ...REPOSITORY_RULES, layers: [{ name: 'routes', paths: ['api/routes/'] }, { name: 'documents', paths: ['api/documents/'] }] };
    const synthetic = importEdges(root, sourceFiles(root, ['lib', 'api', 'pipeline']));
    assert.deepEqual(
      backArrows(synthetic, rules).map(({ edge, rule }) => `${edge.from} → ${edge.to}: ${rule}`),
      ['api/documents/read.ts → api/routes/page.ts: documents may not import routes, a layer above it', 'lib/clock.ts → api/routes/page.ts: lib/ may not import api/'],
      'a type import up a layer and lib importing api are caught; a test beside its module may import anything',
    );
    assert.deepEqual(fileCycles(synthetic), [
      ['api/documents/a.ts', 'api/documents/b.ts'],
      ['api/documents/read.ts', 'api/routes/page.ts'],
    ], 'a re-export closes a cycle, and so does a type import');
    assert.deepEqual(oversized(['pipeline'], root).map((f) => f.name), ['long'], 'the long function is caught, the interpreter that says so is allowed');
  });
});
