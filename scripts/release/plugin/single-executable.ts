/**
 * The plugin as one standalone executable: the bundle (`bin/plugin.js`) made into a Node.js
 * single-executable application (`node --experimental-sea-config`), injected by postject into
 * the platform's `node` binary from npm (./node-runtime.ts). The user's machine then needs no
 * `node`. Executables are cached by the bundle's and the runtime's hashes, so a test run makes
 * each once.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { stripAuthenticode } from "./authenticode";
import {
  cacheRoot,
  copyFromCache,
  keepNewest,
  NODE_RUNTIME_VERSION,
  nodeRuntime,
  PLUGIN_NODE_FLAGS,
  type NodeRuntime,
} from "./node-runtime";

/** The fuse Node.js looks for to know a blob was injected (Node's docs, "Single executable applications"). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

type Postject = {
  inject(file: string, resource: string, data: Buffer, options: { sentinelFuse: string; overwrite?: boolean }): Promise<void>;
};

/**
 * The `node` that writes the preparation blob: it must be the release the executables are made
 * from. This machine's own runtime from npm where there is one, else `node` itself if it is that
 * release.
 */
function blobWriter(hostRuntime: NodeRuntime | undefined): string {
  if (hostRuntime) return nodeRuntime(hostRuntime).binary;
  if (process.version === `v${NODE_RUNTIME_VERSION}`) return process.execPath;
  throw new Error(`making the standalone plugin needs Node.js ${NODE_RUNTIME_VERSION} on this platform (this is ${process.version})`);
}

/**
 * Writes the standalone executable of `bundle` for `runtime` to `target` (mode 0755), from the
 * cache when this bundle was made into this runtime before.
 */
export async function makeSingleExecutable(
  bundle: string,
  runtime: NodeRuntime,
  hostRuntime: NodeRuntime | undefined,
  target: string,
): Promise<void> {
  const script = fs.readFileSync(bundle);
  // V8's code cache (compiled once here, not at every start) is only valid on the platform that
  // wrote it: the host's own executable gets one, the other platforms' compile at start.
  const useCodeCache = hostRuntime !== undefined && hostRuntime.package === runtime.package;
  const sea = { disableExperimentalSEAWarning: true, useCodeCache, useSnapshot: false, execArgv: PLUGIN_NODE_FLAGS };
  // The blob is written under the flags the executable starts with: V8 rejects a code cache made under other flags (and
  // says so on stderr at every start).
  const writerArgs = [...PLUGIN_NODE_FLAGS, "--experimental-sea-config"];
  // A Windows executable's signature, broken by the injection, is stripped (./authenticode.ts).
  const windows = runtime.binary.endsWith(".exe");
  const key = createHash("sha256")
    .update(script)
    .update(runtime.integrity)
    .update(JSON.stringify({ sea, writerArgs, unsigned: windows }))
    .digest("hex")
    .slice(0, 24);
  const cached = path.join(cacheRoot(), "plugin-executables", `${runtime.package}-${NODE_RUNTIME_VERSION}-${key}`);
  await copyFromCache(
    cached,
    target,
    async (work) => {
      const config = path.join(work, "sea-config.json");
      const blob = path.join(work, "sea-prep.blob");
      fs.writeFileSync(config, JSON.stringify({ main: bundle, output: blob, ...sea }));
      execFileSync(blobWriter(hostRuntime), [...writerArgs, config], { stdio: "pipe" });
      const executable = path.join(work, "executable");
      fs.copyFileSync(nodeRuntime(runtime).binary, executable);
      fs.chmodSync(executable, 0o755);
      const postject = require("postject") as Postject;
      await withoutHarmlessWarnings(() => postject.inject(executable, "NODE_SEA_BLOB", fs.readFileSync(blob), { sentinelFuse: SEA_FUSE }));
      if (windows) stripAuthenticode(executable);
      return executable;
    },
    () => pruneCache(path.dirname(cached), `${runtime.package}-${NODE_RUNTIME_VERSION}-`),
  );
}

// postject's wasm reports through console.warn, bound when each inject loads it, what does not
// matter here: every ELF note section it cannot name ("Can't find string offset for section name
// '.note.100'"), and node.exe's Authenticode signature, which the injection breaks and
// stripAuthenticode then removes. Other warnings pass through; an error throws.
const HARMLESS_WARNING = /^warning: (Can't find string offset for section name |The signature seems corrupted!)/;

let injecting = 0;
let consoleWarn = console.warn;

/** Runs postject's inject with {@link HARMLESS_WARNING} dropped; injects run side by side, so the last to finish puts console.warn back. */
async function withoutHarmlessWarnings<T>(inject: () => Promise<T>): Promise<T> {
  if (injecting++ === 0) {
    consoleWarn = console.warn;
    const warn = consoleWarn;
    console.warn = (...args: unknown[]) => {
      if (!(typeof args[0] === "string" && HARMLESS_WARNING.test(args[0]))) warn(...args);
    };
  }
  try {
    return await inject();
  } finally {
    if (--injecting === 0) console.warn = consoleWarn;
  }
}

// Executables kept a runtime: one made a build, each about 100 MB, they would fill the disk.
const KEPT_A_RUNTIME = 4;

/** Removes all but the newest {@link KEPT_A_RUNTIME} executables of a runtime, and those of other releases of Node.js. */
function pruneCache(dir: string, prefix: string): void {
  const runtimePackage = prefix.replace(/-[^-]+-$/, "-");
  keepNewest(dir, 0, (name) => name.startsWith(runtimePackage) && !name.startsWith(prefix));
  keepNewest(dir, KEPT_A_RUNTIME, (name) => name.startsWith(prefix));
}
