"use strict";
// Whether dist/ was built from the sources as they are now. npm's prepare (scripts/build/prepare.js)
// builds only when it was not, so `npm ci && npm pack` compiles once; the tests that run the
// built package refuse an older build rather than run it without a word (test/pack-once.js).
const fs = require("node:fs");
const path = require("node:path");

const REPO = path.resolve(__dirname, "..", "..");

/** What `npm run build` compiles (tsconfig.build.json's include), with the tsconfig files themselves. */
function sources(repo) {
  const { include } = JSON.parse(fs.readFileSync(path.join(repo, "tsconfig.build.json"), "utf8"));
  const files = [];
  const walk = (entry) => {
    const stat = fs.statSync(entry, { throwIfNoEntry: false });
    if (stat?.isDirectory()) for (const name of fs.readdirSync(entry)) walk(path.join(entry, name));
    else if (stat && (entry.endsWith(".ts") || /tsconfig[^/]*\.json$/.test(entry))) files.push({ file: entry, mtimeMs: stat.mtimeMs });
  };
  for (const entry of [...include, "tsconfig.json", "tsconfig.build.json"]) walk(path.join(repo, entry));
  return files;
}

/**
 * Why dist/ cannot be used as it is (missing, or older than a source), or undefined when it can.
 * @param {string} [repo] the repository (this one by default)
 * @returns {string | undefined}
 */
function staleBuild(repo = REPO) {
  const built = fs.statSync(path.join(repo, "dist", "index.js"), { throwIfNoEntry: false });
  if (!built) return "dist/ is missing: run `npm run build` first (`npm test` does)";
  const newer = sources(repo).filter((source) => source.mtimeMs > built.mtimeMs);
  if (newer.length === 0) return undefined;
  const names = newer.slice(0, 3).map((source) => path.relative(repo, source.file));
  return `dist/ is older than ${names.join(", ")}${newer.length > 3 ? ` and ${newer.length - 3} more` : ""}: run \`npm run build\` (\`npm test\` does)`;
}

module.exports = { staleBuild };
