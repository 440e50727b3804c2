"use strict";
// Part of the engine and languages tiers' set-up (test/find-pulumi-cli.js): packs the provider
// plugin once a run, this machine's archive as `npm run plugin:pack` makes it, and installs it
// with the real CLI (`pulumi plugin install --file`) into a PULUMI_HOME of the run, for every
// test that installs it (test/support/plugin-archive.ts reads PULUMI_MESSAGING_PLUGIN_ARCHIVE):
// a stack with the plugin gets a copy of that installation, where unpacking the archive again
// would cost most of a second of CPU. test/pack-once-teardown.js removes it. A stale build is
// not packed: the tests that need it refuse (test/pack-once.js).
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { staleBuild } = require("../scripts/build/build-freshness");

const VARIABLE = "PULUMI_MESSAGING_PLUGIN_ARCHIVE";

/** @param {string} cliDir the directory holding `pulumi` */
module.exports = async function packPluginOnce(cliDir) {
  if (process.env[VARIABLE] || staleBuild() !== undefined) return;
  const { packPlugin } = require("../dist/scripts/release/pack-plugin");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-plugin-"));
  const packed = await packPlugin(dir);
  const home = path.join(dir, "home");
  execFileSync(
    path.join(cliDir, "pulumi"),
    ["plugin", "install", "resource", "messaging", packed.version, "--file", packed.archive, "--non-interactive"],
    { env: { ...process.env, PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true" }, stdio: ["ignore", "ignore", "pipe"] },
  );
  process.env[VARIABLE] = JSON.stringify({ dir, ...packed, installedPlugins: path.join(home, "plugins") });
};
