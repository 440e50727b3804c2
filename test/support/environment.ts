/** What tests that run the built package need of their surroundings. */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../scripts/pulumi/repo-root";

/** Tests that start the package's processes run compiled code from dist/: `npm test` builds first. */
export function requireBuild(): void {
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
