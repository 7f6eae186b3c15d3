import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Where releases and state live: `--data-dir`, else `SVC_DATA_DIR`, else `data/` in the checkout. */
export function dataDir(flag?: string): string {
  return resolve(flag ?? process.env.SVC_DATA_DIR ?? resolve(REPO_ROOT, 'data'));
}

/** The API's port: `--port`, else `PORT`, else 8787. */
export function port(flag?: string): number {
  const value = Number(flag ?? process.env.PORT ?? 8787);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new Error(`port must be an integer from 0 to 65535, got ${flag ?? process.env.PORT}`);
  return value;
}
