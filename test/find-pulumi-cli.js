"use strict";
// Jest globalSetup of the engine project (run only when one of its tests is selected): finds the
// real Pulumi CLI, or builds it, with scripts/pulumi/cli-dir.ts (`npm run pulumi:path`), which
// hands its directory to the workers in PULUMI_MESSAGING_CLI_DIR. Without one, outside CI the
// tier is skipped saying why (test/support/real-engine.ts); in CI that is a failure.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const CLI_DIR = path.join(__dirname, "..", "dist", "scripts", "pulumi", "cli-dir.js");

module.exports = async function findPulumiCli() {
  // Each test file of the tier adds a line here; test/report-pulumi-counts.js adds them up. The
  // languages tier's set-up calls this too: in one run, both tiers share the one file.
  if (!process.env.PULUMI_MESSAGING_COUNTS_FILE) {
    const counts = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-counts-")), "counts.jsonl");
    fs.writeFileSync(counts, "");
    process.env.PULUMI_MESSAGING_COUNTS_FILE = counts;
    process.env.PULUMI_MESSAGING_TIER_STARTED = String(Date.now());
  }
  // The compiled lookup, as for every other test that runs the package (npm test builds first).
  const lookup = fs.existsSync(CLI_DIR) ? require(CLI_DIR).findPulumiCli() : { missing: "dist/ is missing: run `npm run build` first" };
  if ("dir" in lookup) return;
  if (process.env.CI === "true") throw new Error(`${lookup.missing}; CI runs the real-engine tier and needs it`);
  process.env.PULUMI_MESSAGING_REAL_ENGINE_SKIP = lookup.missing;
};
