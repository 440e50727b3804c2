"use strict";
// A process's own peak resident set. Not `process.resourceUsage().maxRSS`: on Linux a child
// inherits it from the parent that started it (exec keeps the old address space's high-water
// mark), so a plugin the Pulumi CLI starts would report the CLI's peak, and a `messaging send`
// the bench starts the bench's. VmHWM is the mark of this process's own address space.
const fs = require("node:fs");

/** Peak RSS in bytes: VmHWM where /proc has it, else ru_maxrss. */
function peakRssBytes() {
  try {
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync("/proc/self/status", "utf8"));
    if (kib) return Number(kib[1]) * 1024;
  } catch {
    // No /proc (macOS, Windows): ru_maxrss, which there is the process's own.
  }
  return process.resourceUsage().maxRSS * 1024;
}

module.exports = { peakRssBytes };
