"use strict";
// Runs the built `messaging` CLI in this process (arguments after this script's name) and,
// on exit, prints its peak resident set to stderr as `bench-max-rss-bytes N` (ru_maxrss).
process.on("exit", () => {
  process.stderr.write(`\nbench-max-rss-bytes ${process.resourceUsage().maxRSS * 1024}\n`);
});
require("../dist/cli/main.js");
