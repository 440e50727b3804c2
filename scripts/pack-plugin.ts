/**
 * `npm run plugin:pack`: the provider plugin as one self-contained archive, for
 * `pulumi plugin install resource messaging <version> --file <archive>`. It needs only `node`
 * (20.18.1 or later) on the user's machine: the plugin and every module it loads are bundled
 * into `bin/plugin.js` (esbuild), started by a launcher named as the engine looks for it
 * (`pulumi-resource-messaging`, and `.cmd` for Windows: `workspace/plugins.go`
 * `getPluginPath` tries the platform's executable extensions).
 *
 *   node dist/scripts/pack-plugin.js [--out DIR]   (default DIR: dist/plugin-archive)
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { build } from "esbuild";
import { REPO_ROOT } from "./pulumi/repo-root";

/** What {@link packPlugin} made. */
export interface PluginArchive {
  /** The `.tar.gz` to install. */
  archive: string;
  /** The directory it was made from (the archive's contents). */
  directory: string;
  version: string;
}

const LAUNCHER = `#!/bin/sh
# Started by the Pulumi engine with its address as the argument; prints the plugin's port.
exec node "$(dirname "$0")/bin/plugin.js" "$@"
`;
const WINDOWS_LAUNCHER = `@echo off\r\nnode "%~dp0bin\\plugin.js" %*\r\n`;

/** Bundles the plugin and writes `pulumi-resource-messaging-v<version>.tar.gz` into `outDir`. */
export async function packPlugin(outDir: string = path.join(REPO_ROOT, "dist", "plugin-archive")): Promise<PluginArchive> {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    name: string;
    version: string;
    license: string;
  };
  const directory = path.join(outDir, "contents");
  fs.rmSync(directory, { recursive: true, force: true });
  fs.mkdirSync(path.join(directory, "bin"), { recursive: true });

  await build({
    entryPoints: [path.join(REPO_ROOT, "plugin", "main.ts")],
    outfile: path.join(directory, "bin", "plugin.js"),
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    logLevel: "warning",
    legalComments: "external",
  });
  // The plugin reports this version (client/version.ts reads the package.json one level above bin/).
  fs.writeFileSync(
    path.join(directory, "package.json"),
    `${JSON.stringify({ name: manifest.name, version: manifest.version, private: true, license: manifest.license, main: "bin/plugin.js" }, null, 2)}\n`,
  );
  fs.writeFileSync(path.join(directory, "pulumi-resource-messaging"), LAUNCHER, { mode: 0o755 });
  fs.writeFileSync(path.join(directory, "pulumi-resource-messaging.cmd"), WINDOWS_LAUNCHER);
  fs.copyFileSync(path.join(REPO_ROOT, "LICENSE"), path.join(directory, "LICENSE"));

  const archive = path.join(outDir, `pulumi-resource-messaging-v${manifest.version}.tar.gz`);
  fs.rmSync(archive, { force: true });
  // Files at the archive's root, as `pulumi plugin install` unpacks them into the plugin's directory.
  execFileSync("tar", ["-czf", archive, "-C", directory, "."]);
  return { archive, directory, version: manifest.version };
}

if (require.main === module) {
  const at = process.argv.indexOf("--out");
  packPlugin(at > 0 ? path.resolve(process.argv[at + 1]) : undefined).then(
    ({ archive, version }) => {
      process.stdout.write(`${archive}\n`);
      process.stderr.write(`Install it with: pulumi plugin install resource messaging ${version} --file ${archive}\n`);
    },
    (error: unknown) => {
      process.stderr.write(`plugin:pack failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
