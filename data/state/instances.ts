import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { StateDb } from './db.ts';
import { freeUnits } from './usage-holds.ts';

/**
 * API processes as owners of what they hold in the state store: the Idempotency-Key runs (`idempotency_keys`
 * rows in state `running`) and the usage units reserved for calls in progress (`usage_reservations`). Each
 * process registers when it starts and writes its instance id on every such row; a process that is gone
 * without settling them (kill -9, a crash, a power cut) leaves them behind, and the next process to start
 * releases them at once instead of leaving the key answering 409 until its lease ends and the unit held for
 * its hour. A process on another machine sharing the store cannot be judged from here: what it holds is left
 * to the leases.
 */

export interface Instance {
  id: string;
  host: string;
  pid: number;
  /** The kernel's start time of the process (Linux: clock ticks since boot), or null where it is not told. */
  processStart: string | null;
  startedAt: string;
}

/** What a start released. */
export interface Released {
  /** Instances found gone (their rows removed). */
  instances: number;
  /** Idempotency-Key runs freed, so a retry with the key runs. */
  idempotencyKeys: number;
  /** Usage units freed. */
  reservations: number;
}

/** How a process is judged still there; the default asks the kernel. */
export type ProcessAlive = (pid: number, processStart: string | null) => boolean;

/** Registers this process as an owner of leases. */
export async function registerInstance(state: StateDb, now: Date, self: Pick<Instance, 'host' | 'pid' | 'processStart'> = thisProcess()): Promise<Instance> {
  const instance: Instance = { id: `inst_${randomUUID()}`, ...self, startedAt: now.toISOString() };
  await state.run(
    'INSERT INTO api_instances (instance_id, host, pid, process_start, started_at) VALUES (?, ?, ?, ?, ?)',
    instance.id,
    instance.host,
    instance.pid,
    instance.processStart,
    instance.startedAt,
  );
  return instance;
}

/**
 * Releases what processes that are gone still hold: those of this machine whose process has ended (or whose pid
 * now belongs to a process started at another time), and rows whose owner is no longer registered (it ended
 * cleanly, leaving abandoned rows). `self` and live processes keep theirs.
 */
export async function releaseGoneOwners(state: StateDb, self: Instance, alive: ProcessAlive = processAlive): Promise<Released> {
  const instances = await state.all<{ instance_id: string; pid: number; process_start: string | null }>(
    'SELECT instance_id, pid, process_start FROM api_instances WHERE host = ? AND instance_id <> ?',
    self.host,
    self.id,
  );
  const gone = instances.filter((instance) => !alive(instance.pid, instance.process_start)).map((instance) => instance.instance_id);
  return await state.transaction(async () => {
    for (const id of gone) await state.run('DELETE FROM api_instances WHERE instance_id = ?', id);
    const unregistered = 'owner IS NOT NULL AND owner NOT IN (SELECT instance_id FROM api_instances)';
    return {
      instances: gone.length,
      idempotencyKeys: (await state.run(`DELETE FROM idempotency_keys WHERE state = 'running' AND ${unregistered}`)).changes,
      reservations: await freeUnits(state, unregistered),
    };
  });
}

/** At a clean shutdown, after the last request: what this process still holds was abandoned; it and its registration go. */
export async function retireInstance(state: StateDb, self: Instance): Promise<void> {
  await state.transaction(async () => {
    await state.run("DELETE FROM idempotency_keys WHERE state = 'running' AND owner = ?", self.id);
    await freeUnits(state, 'owner = ?', self.id);
    await state.run('DELETE FROM api_instances WHERE instance_id = ?', self.id);
  });
}

function thisProcess(): Pick<Instance, 'host' | 'pid' | 'processStart'> {
  return { host: hostname(), pid: process.pid, processStart: kernelStart(process.pid) };
}

/**
 * Whether `pid` is a running process started at `processStart`: the kernel's process table says (a zombie, ended
 * but not yet reaped, is gone); without /proc, a signal 0 says whether the pid exists at all.
 */
export function processAlive(pid: number, processStart: string | null): boolean {
  const stat = procStat(pid);
  if (stat !== undefined) return stat !== null && stat.state !== 'Z' && (processStart === null || stat.start === processStart);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the pid is someone else's process, alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function kernelStart(pid: number): string | null {
  return procStat(pid)?.start ?? null;
}

/**
 * State and start time from /proc/<pid>/stat: null when the process does not exist, undefined when there is no
 * /proc to ask. The fields after the command name (which may hold spaces and parentheses) start at its last `)`:
 * the state is field 3 and the start time field 22.
 */
function procStat(pid: number): { state: string; start: string } | null | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
    try {
      readFileSync('/proc/self/stat');
      return null;
    } catch {
      return undefined;
    }
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', start: fields[19] ?? '' };
}
