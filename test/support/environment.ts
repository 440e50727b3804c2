/** What tests that run the built package need of their surroundings. */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../scripts/repo-root";

export { REPO_ROOT };

/**
 * Tests that start the package's processes run compiled code from dist/: `npm test` builds
 * first. A build older than its sources is refused (test/pack-once.js judged it), never run.
 */
export function requireBuild(): void {
  const stale = process.env.PULUMI_MESSAGING_STALE_BUILD;
  if (stale) throw new Error(stale);
  for (const file of ["dist/index.js", "dist/provider/runtime.js", "dist/plugin/main.js"]) {
    if (!fs.existsSync(path.join(REPO_ROOT, file))) throw new Error(`${file} is missing: run \`npm run build\` (npm test does) first`);
  }
}

/** The test process's environment without MESSAGING_* settings, so config alone decides. */
export function withoutMessagingEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("MESSAGING_")) delete env[key];
  return { ...env, ...extra };
}
