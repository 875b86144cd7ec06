/** The server's resident memory, read from /proc (Linux): the server and every process under it. */
import { readdirSync, readFileSync } from "node:fs";

function processRssKb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** The server and every process under it (`next start` may fork the actual server). */
function processTree(pid: number): number[] {
  const found = [pid];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      for (const child of children ? children.split(/\s+/).map(Number) : []) found.push(...processTree(child));
    }
  } catch {
    // the process ended meanwhile
  }
  return found;
}

/** The resident memory of the server and every process under it, in kB. */
export const rssKb = (pid: number): number => processTree(pid).reduce((sum, p) => sum + processRssKb(p), 0);

/** "412 MiB", with each process's share when there are several. */
export function rss(pid: number): string {
  const parts = processTree(pid).map((p) => ({ pid: p, mb: processRssKb(p) / 1024 }));
  const total = parts.reduce((sum, p) => sum + p.mb, 0);
  const detail = parts.length > 1 ? ` (${parts.map((p) => `pid ${p.pid}: ${p.mb.toFixed(0)}`).join(", ")})` : "";
  return `${total.toFixed(0)} MiB${detail}`;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_S = 100;

function processCpuMs(pid: number): number {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
  } catch {
    return 0;
  }
}

/** The CPU time used so far by the server and every process under it, in ms (user and system). */
export const cpuMs = (pid: number): number => processTree(pid).reduce((sum, p) => sum + processCpuMs(p), 0);
