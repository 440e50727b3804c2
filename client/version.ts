import { readFileSync } from "node:fs";
import { join } from "node:path";

const PACKAGE_NAME = "pulumi-messaging";

// The package root is one level up from `client/` when run from source (ts-jest) and two
// levels up from `dist/client/` when installed; package.json ships in both cases.
function readPackageVersion(): string {
  for (const relative of ["..", join("..", "..")]) {
    try {
      const manifest = JSON.parse(readFileSync(join(__dirname, relative, "package.json"), "utf8")) as { name?: unknown; version?: unknown };
      if (manifest.name === PACKAGE_NAME && typeof manifest.version === "string") return manifest.version;
    } catch {
      // not this directory: try the next candidate
    }
  }
  return "0.0.0";
}

/** Set by the plugin's bundler (scripts/release/pack-plugin.ts): a single executable has no package.json beside it. */
declare const PULUMI_MESSAGING_BUNDLED_VERSION: string | undefined;

/** This package's version: the bundle's, else read from its `package.json` (`0.0.0` if it cannot be found). */
export const PACKAGE_VERSION: string =
  typeof PULUMI_MESSAGING_BUNDLED_VERSION === "string" ? PULUMI_MESSAGING_BUNDLED_VERSION : readPackageVersion();

/** The `User-Agent` the client sends, e.g. `pulumi-messaging/0.1.0 node/v20.20.2`. */
export const USER_AGENT = `${PACKAGE_NAME}/${PACKAGE_VERSION} node/${process.version}`;
