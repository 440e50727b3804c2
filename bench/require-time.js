"use strict";
// Section of bench/run.js: how long `require` of the package's entry points takes in a fresh
// process (Node's own start-up excluded), against `require("undici")` + `require("zod")`,
// the two libraries the client and the receiver are built on. Each figure is the median of
// RUNS fresh processes. The package is required by name, through its exports map (the
// repository links itself as node_modules/pulumi-messaging), so `dist/` is what is measured.

const { execFileSync } = require("node:child_process");
const path = require("node:path");
const { median } = require("./lib");

const RUNS = 15;
const ROOT = path.join(__dirname, "..");

const CASES = [
  ["undici + zod (baseline)", ["undici", "zod"]],
  ["pulumi-messaging/receiver", ["pulumi-messaging/receiver"]],
  ["pulumi-messaging/client", ["pulumi-messaging/client"]],
  ["pulumi-messaging/emulator", ["pulumi-messaging/emulator"]],
  ["pulumi-messaging (root, loads @pulumi/pulumi)", ["pulumi-messaging"]],
];

/** Milliseconds `require` of `modules` takes in one fresh node process. */
function timeOnce(modules) {
  const source = `const t = process.hrtime.bigint(); for (const m of ${JSON.stringify(modules)}) require(m); process.stdout.write(String(Number(process.hrtime.bigint() - t) / 1e6));`;
  return Number(execFileSync(process.execPath, ["-e", source], { cwd: ROOT, encoding: "utf8" }));
}

/** Median require time of each case, and its ratio to the baseline. */
function requireTimes(progress) {
  const results = [];
  for (const [name, modules] of CASES) {
    progress(`require time: ${name} (${RUNS} processes)`);
    timeOnce(modules); // warm the file system cache
    const times = Array.from({ length: RUNS }, () => timeOnce(modules));
    results.push({ name, modules, medianMs: median(times), minMs: Math.min(...times), maxMs: Math.max(...times) });
  }
  const baseline = results[0].medianMs;
  for (const result of results) result.ratioToBaseline = result.medianMs / baseline;
  return { runs: RUNS, cases: results };
}

module.exports = { requireTimes };

if (require.main === module) {
  const report = requireTimes((text) => process.stderr.write(`bench: ${text}\n`));
  for (const c of report.cases)
    console.log(`${c.name.padEnd(48)} ${c.medianMs.toFixed(1).padStart(8)} ms  ×${c.ratioToBaseline.toFixed(2)}`);
}
