import { inflateSync, constants } from 'node:zlib';
import { latin1 } from './pdf-layout.ts';

/**
 * Decompression-bomb guard. pdf-lib inflates object streams while it loads a file and pdfjs-dist inflates a
 * page's content streams to read its text, neither with a ceiling, so before either sees the file every
 * Flate stream they would inflate is inflated here with `maxOutputLength` and the file is held back when one
 * goes past the ceiling. Image streams are skipped: nothing in the inspection decodes them.
 */
export const STREAM_INFLATE_LIMIT = 32 * 1024 * 1024;
export const TOTAL_INFLATE_LIMIT = 160 * 1024 * 1024;

export interface InflateScan {
  /** Offset of the first stream whose inflated size passed a limit, or null when none did. */
  overLimitAt: number | null;
  inflatedBytes: number;
  streams: number;
}

const streamKeyword = /stream\r?\n/g;

export function scanStreamInflation(bytes: Uint8Array): InflateScan {
  const text = latin1(bytes);
  let inflatedBytes = 0;
  let streams = 0;
  for (const match of text.matchAll(streamKeyword)) {
    if (text.slice(match.index - 3, match.index) === 'end') continue;
    const dictStart = text.lastIndexOf('obj', match.index);
    const dict = dictStart >= 0 ? text.slice(dictStart, match.index) : '';
    if (!/\/FlateDecode\b|\/Fl\b/.test(dict) || /\/Subtype\s*\/Image\b/.test(dict)) continue;
    const dataStart = match.index + match[0].length;
    const dataEnd = text.indexOf('endstream', dataStart);
    if (dataEnd < 0) continue;
    streams += 1;
    const remaining = Math.min(STREAM_INFLATE_LIMIT, TOTAL_INFLATE_LIMIT - inflatedBytes);
    const size = inflatedSize(bytes.subarray(dataStart, dataEnd), remaining);
    if (size === null) return { overLimitAt: match.index, inflatedBytes, streams };
    inflatedBytes += size;
  }
  return { overLimitAt: null, inflatedBytes, streams };
}

/** Inflated length of `data`, or null when it would pass `limit`. Corrupt or truncated data counts as what inflated. */
function inflatedSize(data: Uint8Array, limit: number): number | null {
  try {
    return inflateSync(data, { maxOutputLength: limit + 1, finishFlush: constants.Z_SYNC_FLUSH }).length;
  } catch (error) {
    if (error instanceof RangeError) return null;
    return 0;
  }
}

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
