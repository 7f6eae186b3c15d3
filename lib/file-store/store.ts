import type { Readable } from 'node:stream';

/** What `put` takes: the whole file, or its bytes as they arrive (an upload, another store's `stream`). */
export type FileBody = Uint8Array | AsyncIterable<Uint8Array>;

/**
 * Bytes kept under keys, on a folder or an S3-compatible object store (lib/file-store/README.md). Metadata (who owns
 * a file, its name, its size) stays with the caller, in the state store: a key here is always one the service made,
 * never a name a person gave. A reader never sees half a file: `put` replaces a key's bytes in one step.
 */
export interface FileStore {
  /** Where the bytes are, for logs: the folder, or `s3://bucket/prefix`. */
  readonly description: string;
  /** Stores `body` under `key`, replacing what was there. */
  put(key: string, body: FileBody): Promise<void>;
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<Uint8Array | null>;
  /** The bytes under `key` as a stream, or null when there are none: for files too large to hold at once. */
  stream(key: string): Promise<Readable | null>;
  has(key: string): Promise<boolean>;
  /** Removes `key`; removing a key that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** Every key under `prefix` (`''`, or a key ending in `/`), sorted. */
  list(prefix: string): Promise<string[]>;
  /** Lets go of connections; the store is not used afterwards. */
  close(): void;
}

// One segment: letters, digits, `.`, `_`, `-`, not starting with `.` (so never `.` or `..`, and never the folder
// store's temporary `.…partial` names). Keys are made by the service from ids and hashes; these are enough.
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
// S3's limit on a whole key is 1,024 bytes; the rest is left for a configured prefix.
const LARGEST_KEY = 900;

/** Whether `key` is one `checkedKey` accepts. */
export function isKey(key: string): boolean {
  return key.length > 0 && key.length <= LARGEST_KEY && key.split('/').every((segment) => SEGMENT.test(segment));
}

/** Throws unless `key` is segments joined by `/` that cannot climb out of the store or name a hidden file. */
export function checkedKey(key: string): string {
  if (!isKey(key)) {
    throw new Error(`a file store key is 1 to ${LARGEST_KEY} characters in segments of letters, digits, '.', '_' and '-' joined by '/', none starting with '.': ${JSON.stringify(key.slice(0, 100))}`);
  }
  return key;
}

/** Throws unless `prefix` is `''` or a key followed by `/`. */
export function checkedPrefix(prefix: string): string {
  if (prefix !== '') {
    if (!prefix.endsWith('/')) throw new Error(`a file store prefix ends with '/': ${JSON.stringify(prefix)}`);
    checkedKey(prefix.slice(0, -1));
  }
  return prefix;
}

/** The part of `store` under `prefix/`: keys given to it and listed by it leave the prefix out. */
export function withinPrefix(store: FileStore, prefix: string): FileStore {
  const base = checkedPrefix(`${prefix}/`);
  const full = (key: string) => base + checkedKey(key);
  // async, so a refused key is a rejected promise, as from the stores themselves.
  return {
    description: `${store.description}/${prefix}`,
    put: async (key, body) => store.put(full(key), body),
    get: async (key) => store.get(full(key)),
    stream: async (key) => store.stream(full(key)),
    has: async (key) => store.has(full(key)),
    delete: async (key) => store.delete(full(key)),
    list: async (inner) => (await store.list(base + checkedPrefix(inner))).map((key) => key.slice(base.length)),
    close: () => store.close(),
  };
}
