"use strict";
// Jest globalTeardown of the engine project: prints how many `pulumi` operations
// the tier ran, file by file, and the tier's wall time.
const fs = require("node:fs");
const path = require("node:path");

module.exports = async function reportPulumiCounts() {
  const file = process.env.PULUMI_MESSAGING_COUNTS_FILE;
  if (!file || !fs.existsSync(file)) return;
  const lines = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  if (lines.length === 0) return;
  const operations = lines.reduce((sum, line) => sum + line.operations, 0);
  const seconds = Math.round((Date.now() - Number(process.env.PULUMI_MESSAGING_TIER_STARTED)) / 1000);
  const root = path.resolve(__dirname, "..");
  process.stdout.write(
    `\nreal-engine tier: ${operations} pulumi operations in ${lines.length} files, ${seconds} s since the tier's set-up\n` +
      lines.map((line) => `  ${path.relative(root, line.file)}: ${line.operations} operations\n`).join(""),
  );
};
