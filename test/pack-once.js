"use strict";
// Jest globalSetup: packs the built package once for the whole run, for every test that
// installs it as users do (test/support/harness/packed-project.ts reads PULUMI_MESSAGING_TARBALL). Workers
// start after this and inherit the variable. A build that is missing, or older than its
// sources, is not packed: PULUMI_MESSAGING_STALE_BUILD says why, and every test that runs the
// build refuses with that reason (test/support/environment.ts), while tests of the sources run.
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { staleBuild } = require("../scripts/build/build-freshness");

const REPO = path.resolve(__dirname, "..");

module.exports = async function packOnce() {
  const stale = staleBuild();
  if (stale !== undefined) {
    process.env.PULUMI_MESSAGING_STALE_BUILD = stale;
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-tarball-"));
  const output = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], {
    cwd: REPO,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const [{ filename }] = JSON.parse(output);
  process.env.PULUMI_MESSAGING_TARBALL = path.join(dir, filename);
};
