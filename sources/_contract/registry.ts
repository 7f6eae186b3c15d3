import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { SourceDefinition } from './define-source.ts';

const SOURCES_DIR = fileURLToPath(new URL('../', import.meta.url));

/** Every adapter in `sources/`, one file per source, the file name being the id. */
export async function loadRegistry(): Promise<SourceDefinition[]> {
  const files = (await readdir(SOURCES_DIR)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith('_'));
  const sources: SourceDefinition[] = [];
  for (const file of files.sort()) {
    const module = (await import(new URL(`../${file}`, import.meta.url).href)) as { default?: SourceDefinition };
    const source = module.default;
    if (!source) throw new Error(`sources/${file} has no default export`);
    if (`${source.id}.ts` !== file) throw new Error(`sources/${file} declares id ${source.id}; the id must equal the file name`);
    sources.push(source);
  }
  return sources;
}
