"use strict";
// Whether dist/ was built from the sources as they are now: the tests that run the built
// package (the CLI as a child process, the packed tarball) would otherwise run an older build
// without a word. Read by test/pack-once.js, which hands its answer to the workers.
const fs = require("node:fs");
const path = require("node:path");

const REPO = path.resolve(__dirname, "..");

/** What `npm run build` compiles (tsconfig.build.json's include). */
function sources() {
  const { include } = JSON.parse(fs.readFileSync(path.join(REPO, "tsconfig.build.json"), "utf8"));
  const files = [];
  const walk = (entry) => {
    const stat = fs.statSync(entry, { throwIfNoEntry: false });
    if (stat?.isDirectory()) for (const name of fs.readdirSync(entry)) walk(path.join(entry, name));
    else if (stat && entry.endsWith(".ts")) files.push({ file: entry, mtimeMs: stat.mtimeMs });
  };
  for (const entry of include) walk(path.join(REPO, entry));
  return files;
}

/** Why dist/ cannot be used as it is (missing, or older than a source), or undefined when it can. */
function staleBuild() {
  const built = fs.statSync(path.join(REPO, "dist", "index.js"), { throwIfNoEntry: false });
  if (!built) return "dist/ is missing: run `npm run build` first (`npm test` does)";
  const newer = sources().filter((source) => source.mtimeMs > built.mtimeMs);
  if (newer.length === 0) return undefined;
  const names = newer.slice(0, 3).map((source) => path.relative(REPO, source.file));
  return `dist/ is older than ${names.join(", ")}${newer.length > 3 ? ` and ${newer.length - 3} more` : ""}: run \`npm run build\` (\`npm test\` does)`;
}

module.exports = { staleBuild };
