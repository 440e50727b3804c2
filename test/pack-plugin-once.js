"use strict";
// Part of the engine and languages tiers' set-up (test/find-pulumi-cli.js): packs the provider
// plugin once a run, this machine's archive as `npm run plugin:pack` makes it, for every test
// that installs it (test/support/plugin-archive.ts reads PULUMI_MESSAGING_PLUGIN_ARCHIVE); a
// pack costs seconds of CPU, mostly gzip of the standalone executable. test/pack-once-teardown.js
// removes it. A stale build is not packed: the tests that need it refuse (test/pack-once.js).
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { staleBuild } = require("../scripts/build/build-freshness");

const VARIABLE = "PULUMI_MESSAGING_PLUGIN_ARCHIVE";

module.exports = async function packPluginOnce() {
  if (process.env[VARIABLE] || staleBuild() !== undefined) return;
  const { packPlugin } = require("../dist/scripts/release/pack-plugin");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-plugin-"));
  process.env[VARIABLE] = JSON.stringify({ dir, ...(await packPlugin(dir)) });
};
