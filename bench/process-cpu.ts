import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time from Linux's /proc, for telling a bench's own cost from the machine's queue: what each process used
 * (utime + stime of /proc/<pid>/stat) and how busy all cores were (/proc/stat). Read by hand because no kept library
 * reads another process's CPU time; pidusage-style packages shell out to `ps` on every call.
 */

// USER_HZ: /proc counts CPU time in ticks of 1/100 s on every Linux the bench runs on (getconf CLK_TCK).
const TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat after the command name (which may itself hold spaces and parentheses). */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    // The process ended between listing and reading: it has nothing more to count.
    return undefined;
  }
}

/** CPU seconds `pid` has used, user and system; 0 once it is gone. */
export function processCpuSeconds(pid: number): number {
  const fields = statFields(pid);
  // After the name: state (0), ppid (1), …, utime (11), stime (12).
  return fields ? (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND : 0;
}

/**
 * CPU seconds of `pid` and its children (PostgreSQL's postmaster and its backends, say): those running now, and
 * those that ended and were reaped (cutime + cstime), so a backend closing mid-measure keeps its count.
 */
export function processTreeCpuSeconds(pid: number): number {
  const own = statFields(pid);
  if (!own) return 0;
  let total = (Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14])) / TICKS_PER_SECOND;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields && Number(fields[1]) === pid) total += (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  }
  return total;
}

/** Busy and total CPU seconds of all cores since boot (/proc/stat's first line; idle and iowait are not busy). */
export function machineCpuSeconds(): { busy: number; total: number } {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  // user nice system idle iowait irq softirq steal (guest time is already inside user).
  const values = ticks.slice(0, 8).map(Number);
  const total = values.reduce((sum, value) => sum + value, 0);
  const idle = values[3]! + values[4]!;
  return { busy: (total - idle) / TICKS_PER_SECOND, total: total / TICKS_PER_SECOND };
}
