import { inflateSync, constants } from 'node:zlib';

/**
 * The warrant's own object parser (pdf-objects.ts) inflates object streams to read the objects they hold.
 * The guarded open (api/documents/guard.ts) has measured every stream before the inspection parses
 * anything; the cap here keeps this decoder bounded on its own as well.
 */
export const STREAM_INFLATE_LIMIT = 32 * 1024 * 1024;

/** A stream's data decoded when its only filter is Flate (or none), capped; null when it cannot be decoded here. */
export function decodeFlate(data: Uint8Array, filter: string | null, limit = STREAM_INFLATE_LIMIT): Uint8Array | null {
  if (filter === null) return data;
  if (filter !== 'FlateDecode' && filter !== 'Fl') return null;
  try {
    return inflateSync(data, { maxOutputLength: limit, finishFlush: constants.Z_SYNC_FLUSH });
  } catch {
    return null;
  }
}
