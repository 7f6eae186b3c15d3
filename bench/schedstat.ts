import { readdirSync, readFileSync } from 'node:fs';

/**
 * Linux's scheduler statistics (/proc/…/schedstat: time on a core, time runnable waiting for one). Waiting for a
 * core is the part of a latency the machine's queue adds, which CPU time and the cores' busy share cannot show: a
 * request can wait behind other runnable threads while the cores are busy only a fifth of the time on average.
 * Read by hand: no kept library reads it.
 */

/** This thread's (or process `pid`'s main thread's) time on a core and time runnable waiting for one, in ms, as Linux counts them (/proc/thread-self/schedstat). */
export function schedstat(pid?: number): { cpuMs: number; runQueueMs: number } {
  let line: string;
  try {
    line = readFileSync(pid === undefined ? '/proc/thread-self/schedstat' : `/proc/${pid}/schedstat`, 'utf8');
  } catch {
    // The process ended between listing and reading: it has nothing more to count.
    return { cpuMs: 0, runQueueMs: 0 };
  }
  const [onCpu, waiting] = line.split(' ').map(Number);
  return { cpuMs: onCpu! / 1e6, runQueueMs: waiting! / 1e6 };
}

/**
 * Milliseconds the main threads of `pid` and of its children (PostgreSQL's postmaster and backends) have waited,
 * runnable, for a core, each by its pid: `runQueueMsBetween` counts only the processes alive at both readings, as a
 * backend that ended took its count with it.
 */
export function treeRunQueueMs(pid: number): Map<number, number> {
  const waited = new Map([[pid, schedstat(pid).runQueueMs]]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // After the command name (which may hold spaces and parentheses): state, then ppid.
    if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) waited.set(Number(entry), schedstat(Number(entry)).runQueueMs);
  }
  return waited;
}

/** The wait for a core between two `treeRunQueueMs` readings, over the processes in both. */
export function runQueueMsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, waited] of after) {
    const earlier = before.get(pid);
    if (earlier !== undefined) total += waited - earlier;
  }
  return total;
}
