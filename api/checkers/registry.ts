import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnalysisLocation } from './_runner/pool.ts';
import type { CheckerDescriptor } from './define-checker.ts';

/**
 * The checkers: one folder each under `api/checkers/`, declared by its `checker.ts` (define-checker.ts).
 * Folders starting with `_` and folders without a `checker.ts` (shared analysis code such as `screening/`)
 * are not checkers.
 */

const CHECKERS_DIR = fileURLToPath(new URL('./', import.meta.url));

/** Every checker declared in `dir` (default `api/checkers/`), by folder name; each descriptor's `name` must be its folder's. */
export async function loadCheckers(dir: string = CHECKERS_DIR): Promise<CheckerDescriptor[]> {
  const folders = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_') && existsSync(join(dir, entry.name, 'checker.ts')))
    .map((entry) => entry.name)
    .sort();
  const checkers: CheckerDescriptor[] = [];
  for (const folder of folders) {
    const module = (await import(pathToFileURL(join(dir, folder, 'checker.ts')).href)) as { default?: CheckerDescriptor };
    const checker = module.default;
    if (checker === undefined) throw new Error(`${folder}/checker.ts has no default export; declare the checker with export default defineChecker({...}).`);
    if (checker.name !== folder) throw new Error(`${folder}/checker.ts declares the checker ${checker.name}; a checker's name is its folder's.`);
    checkers.push(checker);
  }
  return checkers;
}

/**
 * The order each published document has listed the first checkers in since before they were declared by
 * descriptors: routes in /openapi.json, tools in the MCP list, notes in /agents.md and /llms.txt. Kept so
 * those documents did not change a byte (test/contract-snapshot.test.ts); a checker not named here is listed
 * after these, by name. Adding a checker does not touch this.
 */
const PUBLISHED_ORDER = {
  routes: ['warrants', 'extract', 'identity', 'overlap', 'pack', 'adverse-media', 'references', 'companies', 'ai-text'],
  tools: ['warrants', 'extract', 'identity', 'pack', 'adverse-media', 'companies', 'references', 'overlap', 'ai-text'],
  notes: ['adverse-media', 'references', 'companies', 'overlap', 'ai-text'],
} as const;

/** The checkers as a published document lists them. */
export function publishedOrder(checkers: readonly CheckerDescriptor[], document: keyof typeof PUBLISHED_ORDER): CheckerDescriptor[] {
  const order: readonly string[] = PUBLISHED_ORDER[document];
  const rank = (checker: CheckerDescriptor) => (order.includes(checker.name) ? order.indexOf(checker.name) : order.length);
  return [...checkers].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/** The service's checkers, loaded once. */
export const checkers: readonly CheckerDescriptor[] = await loadCheckers();

/**
 * The analyses the pool's processes run, by name: each pool-lane checker's under its tool's name, the reading
 * step of the judge lane, and the page renders of bid files. Modules are loaded inside the processes, never
 * by the API's main thread.
 */
export function analysesOf(descriptors: readonly CheckerDescriptor[]): Record<string, AnalysisLocation> {
  return {
    ...Object.fromEntries(descriptors.flatMap((checker) => (checker.lane.kind === 'pool' ? [[checker.tool, checker.lane.analysis]] : []))),
    read_text: { moduleUrl: new URL('./read-text.ts', import.meta.url).href, exportName: 'readText' },
    // A page of a bid file drawn as PNG (GET /v1/bids/{bid}/files/{file_id}/pages/{n}/image).
    render_page: { moduleUrl: new URL('../bids/render-page.ts', import.meta.url).href, exportName: 'renderPage' },
  };
}

/** The analyses of the service's checkers (`analysesOf(checkers)`). */
export const checkerAnalyses: Readonly<Record<string, AnalysisLocation>> = analysesOf(checkers);
