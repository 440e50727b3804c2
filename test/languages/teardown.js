"use strict";
// Jest globalTeardown of the languages tier: the engine tier's report of pulumi operations, and
// this run's scratch directory (the venv with the SDK) removed.
const fs = require("node:fs");
const reportPulumiCounts = require("../report-pulumi-counts.js");

module.exports = async function teardown() {
  await reportPulumiCounts();
  const root = process.env.PULUMI_MESSAGING_LANGUAGES_ROOT;
  if (root) fs.rmSync(root, { recursive: true, force: true });
};
