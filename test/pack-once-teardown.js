"use strict";
// Jest globalTeardown: removes what test/pack-once.js and test/pack-plugin-once.js packed.
const fs = require("node:fs");
const path = require("node:path");

module.exports = async function removePacked() {
  const tarball = process.env.PULUMI_MESSAGING_TARBALL;
  if (tarball) fs.rmSync(path.dirname(tarball), { recursive: true, force: true });
  const plugin = process.env.PULUMI_MESSAGING_PLUGIN_ARCHIVE;
  if (plugin) fs.rmSync(JSON.parse(plugin).dir, { recursive: true, force: true });
};
