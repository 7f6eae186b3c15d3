import { createHash } from 'node:crypto';
import type { StateDb } from '../../../data/state/db.ts';
import { canonicalJson } from '../../../lib/canonical-json.ts';

/**
 * The content-hash cache of checker results (spec, Shared input conventions): a result is kept under the
 * checker, the SHA-256 of what it read and a hash of its canonical options, so identical bytes with
 * identical options are answered from the state store, free and at once. It holds results, and the identity
 * and pack checkers' page-1 classifications (api/checkers/first-page-cache.ts, never the page's text), never
 * a document's bytes. Engine failures are never put here, so a retry runs the engine again.
 */

export interface CacheKey {
  checker: string;
  contentKey: string;
  optionsHash: string;
}

export interface CacheKeyInput {
  checker: string;
  /** The documents in request order; `filename` only where the result shows it (it is then part of the key). */
  documents: readonly { sha256: string; filename?: string | null }[];
  /** The checked options, as the analysis receives them. */
  options: unknown;
  /** The engine that makes the result: a new engine never answers with an old engine's result. */
  engineVersion: string;
}

export function cacheKey(input: CacheKeyInput): CacheKey {
  const contentKey = sha256(input.documents.map((document) => (document.filename === undefined ? document.sha256 : `${document.sha256}:${document.filename ?? ''}`)).join('\n'));
  return { checker: input.checker, contentKey, optionsHash: sha256(`${input.engineVersion}\n${canonicalJson(input.options)}`) };
}

export interface ContentCache {
  /** The stored result, or undefined. */
  get(key: CacheKey): Promise<unknown>;
  /** Stores (or replaces, after `fresh=1`) a result. */
  put(key: CacheKey, result: unknown, now: Date): Promise<void>;
}

export function createContentCache(state: StateDb): ContentCache {
  return {
    async get(key) {
      const row = await state.get<{ result: string }>(
        'SELECT result FROM checker_results WHERE checker = ? AND content_key = ? AND options_hash = ?',
        key.checker,
        key.contentKey,
        key.optionsHash,
      );
      return row === undefined ? undefined : JSON.parse(row.result);
    },
    async put(key, result, now) {
      await state.run(
        `INSERT INTO checker_results (checker, content_key, options_hash, result, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (checker, content_key, options_hash) DO UPDATE SET result = excluded.result, created_at = excluded.created_at`,
        key.checker,
        key.contentKey,
        key.optionsHash,
        JSON.stringify(result),
        now.toISOString(),
      );
    },
  };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
