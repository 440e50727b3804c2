import * as fs from "node:fs";
import * as path from "node:path";

/**
 * How the user should type this command again: `messaging` when that name on PATH is this
 * very program (a global install, or `npm run`'s PATH), `npx messaging` otherwise (a local
 * install puts it in node_modules/.bin, which a shell does not search).
 */
export function programName(env: NodeJS.ProcessEnv = process.env, script: string | undefined = process.argv[1]): string {
  if (script === undefined) return "npx messaging";
  let self: string;
  try {
    self = fs.realpathSync(script);
  } catch {
    return "npx messaging";
  }
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    try {
      if (fs.realpathSync(path.join(dir, "messaging")) === self) return "messaging";
    } catch {
      // not there
    }
  }
  return "npx messaging";
}
