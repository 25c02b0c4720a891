import { readFileSync } from "node:fs";

/** Linux's USER_HZ: /proc counts CPU time in these ticks (getconf CLK_TCK; 100 on every Linux build Node runs on). */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system, every thread) process `pid` has used so far, in ms, from /proc (Linux); its children not counted. */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // the command name is in parentheses and may hold spaces: the fields after the last ")" are fixed (state first; utime, stime 12th and 13th)
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}
