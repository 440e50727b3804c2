"use strict";
// Jest globalSetup: packs the built package once for the whole run, for every test that
// installs it as users do (scripts/pulumi/packed-project.ts reads PULUMI_MESSAGING_TARBALL). Workers
// start after this and inherit the variable. Without a build there is nothing to pack: the
// tests that need it then say so themselves.
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const REPO = path.resolve(__dirname, "..");

module.exports = async function packOnce() {
  if (!fs.existsSync(path.join(REPO, "dist", "index.js"))) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-tarball-"));
  const output = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], {
    cwd: REPO,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const [{ filename }] = JSON.parse(output);
  process.env.PULUMI_MESSAGING_TARBALL = path.join(dir, filename);
};
