"use strict";
// Section 11's view of the Pulumi processes themselves, which are Go and cannot preload
// process-usage.js: while an `up` runs, /proc is read every 50 ms, and the CPU time last seen of
// each descendant of this process named `pulumi` (the CLI, the `up` and the Automation API's
// commands around it) or `pulumi-language-*` (a language host) is summed. A process that lives
// under 50 ms is missed, and each loses at most its last 50 ms. Linux only: elsewhere, no figures.
const fs = require("node:fs");

const TICK_MS = 10; // USER_HZ, 100 on every Linux the bench runs on
const SAMPLE_MS = 50;

/** pid → { ppid, comm, cpuMs, startTicks } for every process /proc lists now. */
function processes() {
  const found = new Map();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // gone since the listing
    }
    // comm is in parentheses and may hold spaces or parentheses: the fields follow the last ")".
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    found.set(Number(name), {
      ppid: Number(fields[1]),
      comm,
      cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
      startTicks: fields[19],
    });
  }
  return found;
}

function descendsFromUs(pid, table) {
  for (let at = table.get(pid), hops = 0; at !== undefined && hops < 64; at = table.get(at.ppid), hops++) {
    if (at.ppid === process.pid) return true;
  }
  return false;
}

/** Starts sampling; `stop()` gives the CLI's and the language hosts' CPU ms (undefined without /proc). */
function sampleEngineProcesses() {
  if (!fs.existsSync("/proc/self/stat")) return { stop: () => ({ cliCpuMs: undefined, languageHostCpuMs: undefined }) };
  const last = new Map(); // `${pid}:${startTicks}` → { comm, cpuMs }
  const sample = () => {
    const table = processes();
    for (const [pid, info] of table) {
      if (info.comm !== "pulumi" && !info.comm.startsWith("pulumi-language")) continue;
      if (descendsFromUs(pid, table)) last.set(`${pid}:${info.startTicks}`, info);
    }
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const sum = (pick) => [...last.values()].filter(pick).reduce((total, info) => total + info.cpuMs, 0);
      return {
        cliCpuMs: sum((info) => info.comm === "pulumi"),
        languageHostCpuMs: sum((info) => info.comm.startsWith("pulumi-language")),
      };
    },
  };
}

module.exports = { sampleEngineProcesses };
