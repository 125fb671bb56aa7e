// CPU time from /proc (Linux): a process's, and each of its threads'. Elsewhere the answers are
// null and empty, and the benchmarks print no CPU figures.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on Linux). */
const TICKS_PER_S = 100;

/** utime + stime of a /proc stat line, in seconds (fields 14 and 15; 11 and 12 after the name). */
function statSeconds(stat: string): { name: string; seconds: number } {
  const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { name, seconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S };
}

/** CPU seconds (user + system) a process has used so far, or null where /proc cannot say. */
export function processCpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    return statSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8')).seconds;
  } catch {
    return null;
  }
}

export interface ThreadCpu {
  tid: number;
  name: string;
  seconds: number;
}

/** CPU seconds of each thread of a process so far (empty where /proc cannot say). */
export function threadCpuSeconds(pid: number): ThreadCpu[] {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tids.flatMap((tid) => {
    try {
      return [{ tid: Number(tid), ...statSeconds(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')) }];
    } catch {
      return []; // the thread ended meanwhile
    }
  });
}

/** Per thread, the CPU seconds used between two readings (threads started since count from 0). */
export function threadCpuSince(before: readonly ThreadCpu[], after: readonly ThreadCpu[]): ThreadCpu[] {
  const earlier = new Map(before.map((t) => [t.tid, t.seconds]));
  return after.map((t) => ({ ...t, seconds: t.seconds - (earlier.get(t.tid) ?? 0) }));
}
