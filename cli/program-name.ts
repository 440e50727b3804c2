import * as fs from "node:fs";
import * as path from "node:path";

/**
 * Through npx, named by its package: on npm, `messaging` is another package, which a bare `npx messaging` in a folder without
 * this one would fetch and run.
 */
export const NPX_PROGRAM = "npx -p pulumi-messaging messaging";

/**
 * How the user should type this command again: `messaging` when that name on PATH is this
 * very program (a global install), {@link NPX_PROGRAM} otherwise. A `node_modules/.bin` on PATH
 * does not count: npm puts it there only for its own scripts, and the user's shell will not
 * have it, while npx works in both.
 */
export function programName(env: NodeJS.ProcessEnv = process.env, script: string | undefined = process.argv[1]): string {
  if (script === undefined) return NPX_PROGRAM;
  let self: string;
  try {
    self = fs.realpathSync(script);
  } catch {
    return NPX_PROGRAM;
  }
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir === "" || path.basename(dir) === ".bin") continue;
    try {
      if (fs.realpathSync(path.join(dir, "messaging")) === self) return "messaging";
    } catch {
      // not there
    }
  }
  return NPX_PROGRAM;
}
