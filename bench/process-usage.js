"use strict";
// Preloaded into every node process of a bench `pulumi up` (NODE_OPTIONS=--require): the
// driver, the TypeScript route's provider host, the plugin. Writes the process's CPU time and
// peak RSS to $BENCH_USAGE_DIR/<pid>.json every 50 ms and on exit, so a process the engine
// kills at the end of a run still leaves its figures (to within 50 ms of CPU). `startedAt` tells
// a process of this run from one a previous run left stopping (it keeps writing until it ends).
const fs = require("node:fs");
const path = require("node:path");
const { peakRssBytes } = require("./peak-rss");

const dir = process.env.BENCH_USAGE_DIR;
if (dir) {
  const file = path.join(dir, `${process.pid}.json`);
  const startedAt = Date.now();
  const write = () => {
    const usage = process.resourceUsage();
    const record = {
      startedAt,
      argv: process.argv.slice(1).join(" "),
      cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
      maxRssBytes: peakRssBytes(),
    };
    try {
      // Written beside and renamed over: the bench may read the file at any moment, and must never find it half written.
      fs.writeFileSync(`${file}.partial`, JSON.stringify(record));
      fs.renameSync(`${file}.partial`, file);
    } catch {
      // The run's directory is gone: nothing to report to.
    }
  };
  setInterval(write, 50).unref();
  process.on("exit", write);
}
