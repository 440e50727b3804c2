"use strict";
// Jest globalSetup of the engine project (run only when one of its tests is selected): finds the
// real Pulumi CLI, or builds it, through scripts/pulumi-path.sh (`npm run pulumi:path`), and
// hands its directory to the workers in PULUMI_MESSAGING_CLI_DIR. Without one, outside CI the
// tier is skipped saying why (test/support/real-engine.ts); in CI that is a failure.
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

module.exports = async function findPulumiCli() {
  // Each test file of the tier adds a line here; test/report-pulumi-counts.js adds them up.
  const counts = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-counts-")), "counts.jsonl");
  fs.writeFileSync(counts, "");
  process.env.PULUMI_MESSAGING_COUNTS_FILE = counts;
  process.env.PULUMI_MESSAGING_TIER_STARTED = String(Date.now());
  if (process.env.PULUMI_MESSAGING_CLI_DIR) return;
  const script = path.join(__dirname, "..", "scripts", "pulumi-path.sh");
  const result = spawnSync("bash", [script], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const dir = (result.stdout || "").trim().split("\n").pop();
  if (result.status === 0 && dir) {
    process.env.PULUMI_MESSAGING_CLI_DIR = dir;
    return;
  }
  const reason = `no Pulumi CLI: scripts/pulumi-path.sh exited ${result.status} (see its message above)`;
  if (process.env.CI === "true") throw new Error(`${reason}; CI runs the real-engine tier and needs it`);
  process.env.PULUMI_MESSAGING_REAL_ENGINE_SKIP = reason;
};
