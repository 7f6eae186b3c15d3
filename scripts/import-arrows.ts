// The import rules of DESIGN §3 and api/README.md, checked on the code: every import that runs back up a layer and
// every cycle of files. test/architecture.test.ts fails on either; run this to see them.
// Usage: node scripts/import-arrows.ts
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** One import of one of our files by another (type-only imports too: a type import can close a cycle), paths relative to the repository root with `/`. */
export interface ImportEdge {
  from: string;
  to: string;
}

/** A layer of a layered folder: the files under any of `paths` (a folder ending in `/`, or one file). */
export interface Layer {
  name: string;
  paths: readonly string[];
}

export interface ImportRules {
  /** Top-level folder → the other top-level folders its files may import. A folder not named here is not checked. */
  folders: Readonly<Record<string, readonly string[]>>;
  /** Files that may import anything (tests and tools): their imports are not checked against the folders or layers. */
  unchecked: (file: string) => boolean;
  /** Layers inside one folder, top first: a file may import its own layer and those below it, never above. */
  layers: readonly Layer[];
}

export interface Violation {
  edge: ImportEdge;
  rule: string;
}

const CODE = /\.(ts|mts|mjs|astro)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'releases', 'state', 'outbox', 'dist', '.astro']);

/** Our source files under `folders` (tests included: their imports form cycles too). */
export function sourceFiles(root: string, folders: readonly string[]): string[] {
  const walk = (folder: string): string[] =>
    readdirSync(join(root, folder)).flatMap((entry) => {
      const path = `${folder}/${entry}`;
      if (statSync(join(root, path)).isDirectory()) return SKIPPED_FOLDERS.has(entry) ? [] : walk(path);
      return CODE.test(entry) && !entry.endsWith('.d.ts') ? [path] : [];
    });
  return folders.flatMap(walk).sort();
}

/** The script parts of an .astro file: its frontmatter and its `<script>` blocks. */
function astroScript(text: string): string {
  const frontmatter = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '';
  const scripts = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
  return [frontmatter, ...scripts].join('\n');
}

/** Every import (static, re-export, or `import()` of a literal) of one of `files` by another. */
export function importEdges(root: string, files: readonly string[]): ImportEdge[] {
  const known = new Set(files);
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const raw = readFileSync(join(root, file), 'utf8');
    const text = file.endsWith('.astro') ? astroScript(raw) : raw;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const add = (specifier: string) => {
      if (!specifier.startsWith('.')) return;
      const to = relative(root, resolve(root, dirname(file), specifier)).split('\\').join('/');
      if (known.has(to)) edges.push({ from: file, to });
    };
    const visit = (node: ts.Node) => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        add(node.moduleSpecifier.text);
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
        add(node.arguments[0].text);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return edges;
}

const folderOf = (file: string) => file.split('/')[0]!;

function layerOf(file: string, layers: readonly Layer[]): number | undefined {
  let found: { index: number; length: number } | undefined;
  layers.forEach((layer, index) => {
    for (const path of layer.paths) {
      const matches = path.endsWith('/') ? file.startsWith(path) : file === path;
      if (matches && (found === undefined || path.length > found.length)) found = { index, length: path.length };
    }
  });
  return found?.index;
}

/** Every import that breaks `rules`: a folder it may not import, or a layer above its own. */
export function backArrows(edges: readonly ImportEdge[], rules: ImportRules): Violation[] {
  const violations: Violation[] = [];
  for (const edge of edges) {
    if (rules.unchecked(edge.from)) continue;
    const from = folderOf(edge.from);
    const to = folderOf(edge.to);
    const allowed = rules.folders[from];
    if (from !== to && allowed !== undefined && !allowed.includes(to)) violations.push({ edge, rule: `${from}/ may not import ${to}/` });
    const fromLayer = layerOf(edge.from, rules.layers);
    const toLayer = layerOf(edge.to, rules.layers);
    if (fromLayer !== undefined && toLayer !== undefined && toLayer < fromLayer) {
      violations.push({ edge, rule: `${rules.layers[fromLayer]!.name} may not import ${rules.layers[toLayer]!.name}, a layer above it` });
    }
  }
  return violations;
}

/** Every cycle of files (each strongly connected set of two or more files, or a file importing itself), sorted. */
export function fileCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  // Tarjan's strongly connected components, iteratively so a long import chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; child: number }[] = [{ node: start, child: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const children = next.get(frame.node) ?? [];
      if (frame.child < children.length) {
        const child = children[frame.child++]!;
        if (!index.has(child)) {
          index.set(child, counter);
          low.set(child, counter++);
          stack.push(child);
          onStack.add(child);
          work.push({ node: child, child: 0 });
        } else if (onStack.has(child)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(child)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || children.includes(frame.node)) cycles.push(component.sort());
    }
  }
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * This repository's rules. Folders (DESIGN §3): `sources → pipeline → data ← api`, `data → site`; `lib/` imports
 * nothing of ours and everything may import it; nothing imports `api/` or `pipeline/` except tests (`test/` and
 * `*.test.ts` beside their module), `bench/` and the developer tools in `scripts/`. Layers inside `api/`
 * (api/README.md), top first.
 */
export const REPOSITORY_RULES: ImportRules = {
  folders: {
    lib: [],
    sources: ['lib'],
    data: ['lib'],
    pipeline: ['sources', 'data', 'lib'],
    api: ['data', 'lib'],
    site: ['data', 'lib'],
  },
  unchecked: (file) => file.endsWith('.test.ts') || ['test', 'bench', 'scripts'].includes(folderOf(file)),
  layers: [
    { name: 'api/server.ts', paths: ['api/server.ts'] },
    { name: 'api/app.ts', paths: ['api/app.ts', 'api/openapi-access.ts'] },
    { name: 'api/mcp', paths: ['api/mcp/'] },
    { name: 'api/routes', paths: ['api/routes/'] },
    { name: 'api/middleware', paths: ['api/middleware/'] },
    { name: 'the api domain', paths: ['api/checkers/', 'api/bids/', 'api/orgs/', 'api/accounts/', 'api/usage/', 'api/schemas/', 'api/release-store.ts'] },
    { name: 'api/providers', paths: ['api/providers/'] },
    { name: 'api/documents', paths: ['api/documents/'] },
  ],
};

export const CODE_FOLDERS = ['lib', 'sources', 'pipeline', 'data', 'api', 'site', 'test', 'bench', 'scripts'];

if (import.meta.main) {
  const edges = importEdges('.', sourceFiles('.', CODE_FOLDERS));
  const violations = backArrows(edges, REPOSITORY_RULES);
  for (const { edge, rule } of violations) process.stdout.write(`${edge.from} → ${edge.to}: ${rule}\n`);
  const cycles = fileCycles(edges);
  for (const cycle of cycles) process.stdout.write(`cycle: ${cycle.join(' ↔ ')}\n`);
  process.stdout.write(`${violations.length} imports against the rules, ${cycles.length} file cycles\n`);
}
