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
import { REPO_ROOT } from "./repo-root";

/** The platforms an archive is made for: the bundle is the same, only the launcher differs. */
export const PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"] as const;
export type Platform = (typeof PLATFORMS)[number];

/** What {@link packPlugin} made. */
export interface PluginArchive {
  /** The `.tar.gz` to install on this machine's platform (linux-amd64 where it is not one of {@link PLATFORMS}). */
  archive: string;
  /** Every platform's archive, named as `pulumi plugin install` expects: `pulumi-resource-messaging-v<version>-<os>-<arch>.tar.gz`. */
  archives: Record<Platform, string>;
  /** The directory the bundle was made in (a Unix archive's contents). */
  directory: string;
  version: string;
}

/** This machine's platform in Pulumi's names. */
function hostPlatform(): Platform {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  const platform = `${os}-${arch}`;
  return (PLATFORMS as readonly string[]).includes(platform) ? (platform as Platform) : "linux-amd64";
}

// A young generation of at most 3 x 4 MiB instead of 3 x 16: a batch read from a file allocates
// fast enough to grow it to the full 48 MiB, which decided the plugin's peak RSS (bench section
// 11: a 1,000,000-line file). V8 reads the flag only at start, hence here, not in plugin/main.ts.
const NODE_FLAGS = "--max-semi-space-size=4";
const LAUNCHER = `#!/bin/sh
# Started by the Pulumi engine with its address as the argument; prints the plugin's port.
exec node ${NODE_FLAGS} "$(dirname "$0")/bin/plugin.js" "$@"
`;
const WINDOWS_LAUNCHER = `@echo off\r\nnode ${NODE_FLAGS} "%~dp0bin\\plugin.js" %*\r\n`;

/** Bundles the plugin and writes `pulumi-resource-messaging-v<version>-<os>-<arch>.tar.gz` for each platform into `outDir`. */
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
  fs.copyFileSync(path.join(REPO_ROOT, "LICENSE"), path.join(directory, "LICENSE"));

  // One archive a platform: the Unix launcher, or on Windows the .cmd one (the engine tries the
  // platform's executable extensions: workspace/plugins.go getPluginPath). Files at the
  // archive's root, as `pulumi plugin install` unpacks them into the plugin's directory.
  const archives = {} as Record<Platform, string>;
  for (const platform of PLATFORMS) {
    const windows = platform.startsWith("windows");
    for (const [name, text] of [
      ["pulumi-resource-messaging", LAUNCHER],
      ["pulumi-resource-messaging.cmd", WINDOWS_LAUNCHER],
    ]) {
      const file = path.join(directory, name);
      fs.rmSync(file, { force: true });
      if (name.endsWith(".cmd") === windows) fs.writeFileSync(file, text, { mode: 0o755 });
    }
    const archive = path.join(outDir, `pulumi-resource-messaging-v${manifest.version}-${platform}.tar.gz`);
    fs.rmSync(archive, { force: true });
    execFileSync("tar", ["-czf", archive, "-C", directory, "."]);
    archives[platform] = archive;
  }
  // The directory left as the host's archive holds it.
  for (const name of ["pulumi-resource-messaging", "pulumi-resource-messaging.cmd"]) fs.rmSync(path.join(directory, name), { force: true });
  const host = hostPlatform();
  if (host.startsWith("windows")) fs.writeFileSync(path.join(directory, "pulumi-resource-messaging.cmd"), WINDOWS_LAUNCHER);
  else fs.writeFileSync(path.join(directory, "pulumi-resource-messaging"), LAUNCHER, { mode: 0o755 });
  return { archive: archives[host], archives, directory, version: manifest.version };
}

if (require.main === module) {
  const at = process.argv.indexOf("--out");
  packPlugin(at > 0 ? path.resolve(process.argv[at + 1]) : undefined).then(
    ({ archive, archives, version }) => {
      process.stdout.write(`${Object.values(archives).join("\n")}\n`);
      process.stderr.write(`Install this machine's with: pulumi plugin install resource messaging ${version} --file ${archive}\n`);
    },
    (error: unknown) => {
      process.stderr.write(`plugin:pack failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
