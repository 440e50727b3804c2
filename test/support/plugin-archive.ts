import { packPlugin, type PluginArchive } from "../../scripts/release/pack-plugin";

/** A plugin archive, and where the run's set-up installed it (a `plugins` directory of a PULUMI_HOME). */
export type RunPluginArchive = PluginArchive & { readonly installedPlugins?: string };

/**
 * The provider plugin's archive for this machine, as `npm run plugin:pack` makes it: the one the
 * run's set-up packed and installed (test/pack-plugin-once.js), or, outside such a run, one
 * packed into `dir`. Shared by every test of the run: install it, start it, never change it.
 */
export function pluginArchive(dir: string): Promise<RunPluginArchive> {
  const packed = process.env.PULUMI_MESSAGING_PLUGIN_ARCHIVE;
  return packed ? Promise.resolve(JSON.parse(packed) as RunPluginArchive) : packPlugin(dir);
}
