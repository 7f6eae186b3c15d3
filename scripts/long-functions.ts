// Lists functions longer than a limit (default 80 lines) in the folders given, longest first: the size rule of
// issue 25 ("no function over 80 lines in api/checkers, api/bids, api/documents, api/routes and pipeline").
// A function's length is its lines from its first to its last, nested functions included.
// Usage: node scripts/long-functions.ts [--limit 80] folder…
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export interface LongFunction { file: string; name: string; line: number; lines: number }

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) return entry === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|mts)$/.test(entry) && !/\.test\.ts$/.test(entry) && !entry.endsWith('.d.ts') ? [path] : [];
  });
}

function nameOf(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText();
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (parent && ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

/** Every function in `folders` longer than `limit` lines. */
export function longFunctions(folders: string[], limit = 80): LongFunction[] {
  const found: LongFunction[] = [];
  for (const file of folders.flatMap(sourceFiles)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (last - first + 1 > limit) found.push({ file, name: nameOf(node), line: first + 1, lines: last - first + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort((a, b) => b.lines - a.lines);
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const limitAt = args.indexOf('--limit');
  const limit = limitAt >= 0 ? Number(args.splice(limitAt, 2)[1]) : 80;
  const found = longFunctions(args.length > 0 ? args : ['api/checkers', 'api/bids', 'api/documents', 'api/routes', 'pipeline'], limit);
  for (const f of found) process.stdout.write(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}\n`);
  process.stdout.write(`${found.length} functions over ${limit} lines\n`);
}
