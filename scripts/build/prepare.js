"use strict";
// npm's `prepare` (run by `npm ci`, `npm install` of a git URL, and `npm pack`): builds dist/
// unless it is already built from the sources as they are, so `npm ci && npm pack` compiles
// once, not twice. `npm run build` always compiles.
const { execFileSync } = require("node:child_process");
const path = require("node:path");
const { staleBuild } = require("./build-freshness");

const REPO = path.resolve(__dirname, "..", "..");

const stale = staleBuild();
if (stale === undefined) {
  process.stderr.write("pulumi-messaging: dist/ is already built from these sources; not compiled again\n");
} else {
  require("./remove-orphan-outputs");
  execFileSync(process.execPath, [path.join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"], {
    cwd: REPO,
    stdio: "inherit",
  });
}
