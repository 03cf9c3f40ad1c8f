import { execFileSync } from "node:child_process";
import fs from "node:fs";

// CPU time of a process tree, read from /proc (Linux). `next start` may serve from a child
// process, so a sample sums the process and all its descendants.

export type ProcInfo = { pid: number; ppid: number; comm: string; ticks: number };

let clockTicks: number | undefined;

/** Clock ticks per second: the unit of utime and stime in /proc/<pid>/stat. */
export function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

function readStat(pid: number): ProcInfo | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined; // exited meanwhile
  }
  // The command name is in parentheses and may itself contain spaces or parentheses.
  const close = text.lastIndexOf(")");
  const comm = text.slice(text.indexOf("(") + 1, close);
  const f = text.slice(close + 2).split(" ");
  // After the name: state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime
  return { pid, ppid: Number(f[1]), comm, ticks: Number(f[11]) + Number(f[12]) };
}

/** The process and every live descendant. */
export function processTree(rootPid: number): ProcInfo[] {
  const all: ProcInfo[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const info = readStat(Number(name));
    if (info) all.push(info);
  }
  const tree: ProcInfo[] = [];
  const wanted = new Set([rootPid]);
  // Children may have lower pids than their parents (pid wrap-around): loop until stable.
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of all) {
      if (!wanted.has(p.pid) && wanted.has(p.ppid)) {
        wanted.add(p.pid);
        grew = true;
      }
    }
  }
  for (const p of all) if (wanted.has(p.pid)) tree.push(p);
  return tree;
}

/** utime + stime of the tree, in microseconds. */
export function treeCpuMicros(rootPid: number): number {
  const ticks = processTree(rootPid).reduce((sum, p) => sum + p.ticks, 0);
  return (ticks * 1e6) / ticksPerSecond();
}

export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
  } catch {
    return "";
  }
}
