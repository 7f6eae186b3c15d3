import { readFile } from 'node:fs/promises';
import { currentPointerPath, readCurrentRelease, type CurrentRelease, type Manifest } from '../data/release.ts';
import { openStore, type Store } from '../data/store.ts';
import { useAwardIndex, type AwardIndex } from '../data/search/award-index.ts';
import { hasServingIndex, readServingAwards, readServingTenders, writeServingIndexApart } from '../data/search/serving-index.ts';
import type { TenderIndex } from '../data/search/tender-index.ts';

/** One release opened for serving: its read-only store, and the tenders and registry held in memory. */
export interface LoadedRelease {
  id: string;
  computedAt: string;
  manifest: Manifest;
  tenders: TenderIndex;
  /** The release's DuckDB file, read-only, for routes that query it directly. */
  store: Store;
  /** The award list's index, loading in the background; closed with the release. */
  awards: Promise<AwardIndex>;
}

/** Routes behind `requireRelease` (api/middleware/require-release.ts) read the release from `c.get('release')`. */
export interface ReleaseEnv {
  Variables: { release: LoadedRelease };
}

export interface ReleaseStoreOptions {
  /** The folder holding `current.json` and `releases/`. */
  dataDir: string;
  /**
   * The service clock: every "today" and "last N days" is judged against it. By default the system clock,
   * except for a release built from fixtures or synthetic data, which is served on its own pinned clock:
   * recorded pages describe the day they were captured, and on any later day nearly every tender in them
   * would be closed.
   */
  now?: () => Date;
  /** How often `current.json` is checked for a new release. */
  pollMs?: number;
  /** How long a replaced release stays open for requests that started on it (and longer while one still holds it). */
  graceMs?: number;
  /** How soon a pointer whose release could not be opened is tried again, though `current.json` has not moved. */
  retryMs?: number;
  log?: (message: string) => void;
  /** DuckDB's `memory_limit` for each release's store (default 128MB; lib/config.ts `duckdbMemoryLimit` says why). */
  duckdbMemoryLimit?: string;
}

export type ReleaseStoreState =
  | { ready: true; release: LoadedRelease }
  | { ready: false; detail: string };

// A poll every second notices a nightly switch promptly and costs one read of a small file.
const DEFAULT_POLL_MS = 1_000;
// Longer than any request takes, so nothing that started on the old release meets a closed store.
export const DEFAULT_GRACE_MS = 60_000;
// On shared storage a new release's files can reach one instance after its pointer does; this tries again in time
// for every instance to serve the new release within a minute of the switch.
const DEFAULT_RETRY_MS = 20_000;
const DEFAULT_DUCKDB_MEMORY_LIMIT = '128MB';

/**
 * Serves the release `current.json` points at. It opens the release's DuckDB file read-only and loads the
 * release's serving index (tenders, registry, awards list; written by the nightly run, or built in a child
 * process for a release published before serving indexes). A poll notices when the
 * nightly run moves the pointer; the new release is opened and indexed beside the old one and then
 * swapped in one assignment, so a request keeps the release it started with. The old one closes after
 * a grace period, or once the last request holding it (`hold`) is done, whichever is later. Any number of
 * processes may serve one data folder this way, on one machine or on shared storage (README, "Shared release storage").
 *
 * @example
 * const store = await ReleaseStore.open({ dataDir: 'data' });
 * const state = store.state();
 * if (state.ready) state.release.tenders.search({ q: 'roads' }, { limit: 20, offset: 0 }, store.now());
 * await store.close();
 */
export class ReleaseStore {
  readonly now: () => Date;
  readonly #dataDir: string;
  readonly #pollMs: number;
  readonly #graceMs: number;
  readonly #retryMs: number;
  readonly #log: (message: string) => void;
  readonly #duckdbMemoryLimit: string;
  #current: LoadedRelease | null = null;
  #pinnedClock: { manifest: LoadedRelease['manifest']; at: number } | null = null;
  #notReady = 'No release has been published yet; the nightly run publishes one.';
  /**
   * The text of current.json at the last check (null: there was none), so an unchanged pointer costs nothing. It is
   * read, not stat()ed: opening a file makes an NFS client ask the server (close-to-open consistency), where a
   * stat() may be answered from its attribute cache for up to a minute.
   */
  #seenPointer: string | null | undefined;
  /** When a pointer whose release could not be opened is due to be tried again; null when none failed. */
  #retryAt: number | null = null;
  #checks: Promise<void> = Promise.resolve();
  #checking = false;
  #poll: NodeJS.Timeout | undefined;
  readonly #retiring = new Map<LoadedRelease, NodeJS.Timeout>();
  /** Requests holding each release; a replaced release past its grace period closes when its count reaches 0. */
  readonly #holds = new Map<LoadedRelease, number>();
  /** Replaced releases past their grace period, still held by a request. */
  readonly #expired = new Set<LoadedRelease>();
  #closed = false;

  private constructor(options: ReleaseStoreOptions) {
    this.#dataDir = options.dataDir;
    this.now = options.now ?? (() => this.#fixtureClock() ?? new Date());
    this.#pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.#graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    this.#retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
    this.#log = options.log ?? ((message) => console.error(message));
    this.#duckdbMemoryLimit = options.duckdbMemoryLimit ?? DEFAULT_DUCKDB_MEMORY_LIMIT;
  }

  /** Opens the current release (if any) and starts watching the pointer. */
  static async open(options: ReleaseStoreOptions): Promise<ReleaseStore> {
    const store = new ReleaseStore(options);
    await store.refresh();
    store.#poll = setInterval(() => {
      // A slow load must not stack checks; the next tick catches up.
      if (!store.#checking) store.refresh().catch((error: unknown) => store.#log(`release check failed: ${String(error)}`));
    }, store.#pollMs);
    store.#poll.unref();
    return store;
  }

  #fixtureClock(): Date | null {
    const manifest = this.#current?.manifest;
    if (!manifest || manifest.mode === 'live' || !manifest.clock.pinned) return null;
    // Parsed once per release: the clock is read several times by every request.
    if (this.#pinnedClock?.manifest !== manifest) this.#pinnedClock = { manifest, at: Date.parse(manifest.clock.now) };
    return new Date(this.#pinnedClock.at);
  }

  /** The release requests should use now, or why there is none. */
  state(): ReleaseStoreState {
    return this.#current ? { ready: true, release: this.#current } : { ready: false, detail: this.#notReady };
  }

  /**
   * Keeps `release` open until the returned function is called, however long after a swap that is: a request
   * holds the release it started on (api/middleware/require-release.ts).
   */
  hold(release: LoadedRelease): () => void {
    this.#holds.set(release, (this.#holds.get(release) ?? 0) + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const left = (this.#holds.get(release) ?? 1) - 1;
      if (left > 0) {
        this.#holds.set(release, left);
        return;
      }
      this.#holds.delete(release);
      if (this.#expired.delete(release)) closeRelease(release);
    };
  }

  /** Checks the pointer now and swaps in a new release when it moved. Checks run one after another. */
  refresh(): Promise<void> {
    const check = this.#checks.then(() => this.#check());
    // A failed check is reported to its caller; the next one still runs.
    this.#checks = check.catch(() => undefined);
    return check;
  }

  /** Stops watching and closes every open release, including those still in their grace period. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#poll);
    await this.#checks;
    for (const [release, timer] of this.#retiring) {
      clearTimeout(timer);
      closeRelease(release);
    }
    this.#retiring.clear();
    for (const release of this.#expired) closeRelease(release);
    this.#expired.clear();
    if (this.#current) closeRelease(this.#current);
    this.#current = null;
  }

  async #check(): Promise<void> {
    if (this.#closed) return;
    this.#checking = true;
    try {
      const pointer = await readFile(currentPointerPath(this.#dataDir), 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
      const retryDue = this.#retryAt !== null && Date.now() >= this.#retryAt;
      if (pointer === this.#seenPointer && !retryDue) return;
      this.#seenPointer = pointer;
      this.#retryAt = null;
      if (pointer === null) return; // keep serving what is open: a removed pointer is not a new release

      let next: CurrentRelease | null;
      try {
        next = await readCurrentRelease(this.#dataDir);
      } catch (error) {
        this.#failed(`current.json points at a release that cannot be read: ${errorText(error)}`);
        return;
      }
      if (!next || next.pointer.release_id === this.#current?.id) return;

      let loaded: LoadedRelease;
      try {
        loaded = await loadRelease(next, this.#duckdbMemoryLimit);
      } catch (error) {
        this.#failed(`release ${next.pointer.release_id} could not be opened: ${errorText(error)}`);
        return;
      }
      if (this.#closed) {
        closeRelease(loaded);
        return;
      }
      if (loaded.tenders.skipped > 0) this.#log(`release ${loaded.id}: ${loaded.tenders.skipped} tender rows left out (unknown jurisdiction, kind or tier)`);
      const previous = this.#current;
      this.#current = loaded;
      this.#log(`serving release ${loaded.id} (computed ${loaded.computedAt}, ${loaded.tenders.size} tenders)`);
      if (previous) this.#retire(previous);
    } finally {
      this.#checking = false;
    }
  }

  #retire(release: LoadedRelease): void {
    const timer = setTimeout(() => {
      this.#retiring.delete(release);
      if (this.#holds.has(release)) this.#expired.add(release);
      else closeRelease(release);
    }, this.#graceMs);
    timer.unref();
    this.#retiring.set(release, timer);
  }

  /** A release that cannot be opened leaves the current one serving (with none, health says why) and is tried again. */
  #failed(message: string): void {
    this.#log(message);
    this.#retryAt = Date.now() + this.#retryMs;
    if (!this.#current) this.#notReady = `No release is being served: ${message}`;
  }
}

/**
 * Runs `work` (the rest of a request) holding `release` open when `store` is a ReleaseStore; stand-in stores in
 * tests hold nothing.
 */
export async function whileHeld(store: Pick<ReleaseStore, 'state'>, release: LoadedRelease, work: () => Promise<void>): Promise<void> {
  const letGo = store instanceof ReleaseStore ? store.hold(release) : undefined;
  try {
    await work();
  } finally {
    letGo?.();
  }
}

async function loadRelease(release: CurrentRelease, memoryLimit: string): Promise<LoadedRelease> {
  if (!(await hasServingIndex(release.dir))) await writeServingIndexApart(release.dir);
  const tenders = await readServingTenders(release.dir);
  const store = await openStore(release.storePath, { readOnly: true, memoryLimit });
  // The awards list's index loads in the background (the list answers 503 {ready: false} until it has).
  const awards = readServingAwards(release.dir);
  useAwardIndex(store, awards);
  return { id: release.pointer.release_id, computedAt: release.manifest.computed_at, manifest: release.manifest, tenders, store, awards };
}

function closeRelease(release: LoadedRelease): void {
  release.store.close();
  release.tenders.close();
  // an index that failed to load has nothing open
  release.awards.then((awards) => awards.close(), () => undefined);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
