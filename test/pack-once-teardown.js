"use strict";
// Jest globalTeardown: removes the tarball test/pack-once.js made.
const fs = require("node:fs");
const path = require("node:path");

module.exports = async function removeTarball() {
  const tarball = process.env.PULUMI_MESSAGING_TARBALL;
  if (tarball) fs.rmSync(path.dirname(tarball), { recursive: true, force: true });
};
