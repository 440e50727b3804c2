"use strict";
// Jest globalSetup of the engine project (run only when one of its tests is selected): finds the
// real Pulumi CLI, or builds it, with `scripts/pulumi-cli/pulumi-path.sh` (`npm run pulumi:path`), and hands
// its directory to the workers in PULUMI_MESSAGING_CLI_DIR. Without one, outside CI the tier is
// skipped saying why (test/support/real-engine.ts); in CI that is a failure.
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const packPluginOnce = require("./pack-plugin-once");

const SCRIPT = path.join(__dirname, "..", "scripts", "pulumi-cli", "pulumi-path.sh");

/** `{ dir }` holding `pulumi` (the script's last line of output), or `{ missing }` saying why not. */
function lookUp() {
  if (process.env.PULUMI_MESSAGING_CLI_DIR) return { dir: process.env.PULUMI_MESSAGING_CLI_DIR };
  // The build's progress goes to this process's stderr.
  const result = spawnSync("bash", [SCRIPT], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const dir = result.stdout?.trim().split("\n").pop();
  if (result.status === 0 && dir) return { dir };
  return { missing: `scripts/pulumi-cli/pulumi-path.sh found no Pulumi CLI and could not build one (exit ${result.status})` };
}

module.exports = async function findPulumiCli() {
  // Each test file of the tier adds a line here; test/report-pulumi-counts.js adds them up. The
  // languages tier's set-up calls this too: in one run, both tiers share the one file.
  if (!process.env.PULUMI_MESSAGING_COUNTS_FILE) {
    const counts = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-counts-")), "counts.jsonl");
    fs.writeFileSync(counts, "");
    process.env.PULUMI_MESSAGING_COUNTS_FILE = counts;
    process.env.PULUMI_MESSAGING_TIER_STARTED = String(Date.now());
  }
  const lookup = lookUp();
  if ("dir" in lookup) {
    process.env.PULUMI_MESSAGING_CLI_DIR = lookup.dir;
    await packPluginOnce(lookup.dir);
    return;
  }
  if (process.env.CI === "true") throw new Error(`${lookup.missing}; CI runs the real-engine tier and needs it`);
  process.env.PULUMI_MESSAGING_REAL_ENGINE_SKIP = lookup.missing;
};
