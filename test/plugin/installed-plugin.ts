/**
 * The plugin as users get it: the `npm pack` tarball installed into a scratch project, its
 * `pulumi-resource-messaging` bin linked into `node_modules/.bin` as npm links bins (a
 * symlink, the target made executable), and found on `PATH` as the engine finds an ambient
 * plugin (a `pulumi-resource-<name>` executable on `PATH`).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createPackedProject, packPackage } from "../support/installed-package";
import { lookPath, startProviderPlugin, type ProviderPlugin } from "../support/provider-plugin";
import { requireBuild, withoutMessagingEnv } from "../support/environment";

export const PLUGIN_EXECUTABLE = "pulumi-resource-messaging";

/**
 * Links the installed package's plugin bin into `<project>/node_modules/.bin` as npm does and
 * returns the executable a `PATH` lookup finds there.
 */
export function linkPluginBin(project: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(project, "node_modules/pulumi-messaging/package.json"), "utf8"));
  const target = path.join(project, "node_modules/pulumi-messaging", manifest.bin[PLUGIN_EXECUTABLE]);
  const binDir = path.join(project, "node_modules", ".bin");
  fs.mkdirSync(binDir, { recursive: true });
  fs.chmodSync(target, 0o755);
  fs.symlinkSync(path.relative(binDir, target), path.join(binDir, PLUGIN_EXECUTABLE));
  const found = lookPath(PLUGIN_EXECUTABLE, { PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ""}` });
  if (!found) throw new Error(`${PLUGIN_EXECUTABLE} not found on PATH after linking it into ${binDir}`);
  return found;
}

/** A scratch project with the packed package and its plugin bin; `cleanup()` removes it. */
export class InstalledPlugin {
  readonly root = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-plugin-test-"));
  readonly project: string;
  /** The executable `PATH` lookup found. */
  readonly executable: string;
  private readonly started: ProviderPlugin[] = [];

  constructor() {
    requireBuild();
    const empty = fs.mkdtempSync(path.join(this.root, "empty-"));
    this.project = createPackedProject(empty, { tarball: packPackage(this.root), parentDir: this.root });
    this.executable = linkPluginBin(this.project);
  }

  /** Starts the plugin with the engine's address as its argument; stopped by `cleanup()` if not before. */
  async start(env: NodeJS.ProcessEnv = withoutMessagingEnv()): Promise<ProviderPlugin> {
    const plugin = await startProviderPlugin(this.executable, { cwd: this.project, env });
    this.started.push(plugin);
    return plugin;
  }

  async cleanup(): Promise<void> {
    await Promise.all(this.started.map((plugin) => plugin.close()));
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}
