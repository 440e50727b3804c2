"use strict";
// Removes what the compiler wrote to dist/ for a source that no longer exists: after a file moves
// (emulator/faults.ts to emulator/faults/index.ts), its old dist/emulator/faults.js would still be
// what require("./faults") finds. Run before every compile (`npm run build`, scripts/build/prepare.js).
const fs = require("node:fs");
const path = require("node:path");

const REPO = path.resolve(__dirname, "..", "..");
const DIST = path.join(REPO, "dist");
const OUTPUT = /\.(d\.ts|js|js\.map|d\.ts\.map)$/;

function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      walk(file);
      if (fs.readdirSync(file).length === 0) fs.rmdirSync(file);
      continue;
    }
    if (!OUTPUT.test(entry.name)) continue;
    const source = path.join(REPO, path.relative(DIST, file)).replace(OUTPUT, ".ts");
    if (!fs.existsSync(source)) fs.rmSync(file);
  }
}

// dist/plugin-archive holds packed archives, not compiled output.
if (fs.existsSync(DIST))
  for (const entry of fs.readdirSync(DIST, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name !== "plugin-archive") walk(path.join(DIST, entry.name));
    else if (entry.isFile() && OUTPUT.test(entry.name) && !fs.existsSync(path.join(REPO, entry.name.replace(OUTPUT, ".ts"))))
      fs.rmSync(path.join(DIST, entry.name));
  }
