"use strict";
// Runs the built `messaging` CLI in this process (arguments after this script's name) and,
// on exit, prints its peak resident set to stderr as `bench-max-rss-bytes N` (peak-rss.js).
const { peakRssBytes } = require("./peak-rss");

process.on("exit", () => {
  process.stderr.write(`\nbench-max-rss-bytes ${peakRssBytes()}\n`);
});
require("../dist/cli/main.js");
