/**
 * The runtime of the darwin and windows-arm64 plugins: Bun, whose builds npm serves
 * (`@oven/bun-darwin-*`, `@oven/bun-windows-aarch64`), where npm has no recent darwin-arm64
 * `node`, and no windows-arm64 one of the release the other executables hold. `bun build --compile` makes one executable of
 * the plugin's bundle and a platform's Bun binary, on Linux, nothing downloaded but the pinned
 * npm packages (fetched and checked like the Node.js runtimes: ./node-runtime.ts). Every darwin
 * executable is then signed ad hoc (./macho.ts): Bun signs darwin-arm64 itself, and its
 * darwin-x64 binary keeps Oven's own signature, which the embedded plugin breaks.
 *
 * The same runtime is built for linux-x64 too, to be run here: darwin binaries cannot be, so the
 * tests run the plugin's real-CLI lifecycle on the linux-x64 Bun build, and check that each
 * darwin executable embeds the very same JavaScript (test/release/plugin-binaries.test.ts).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { peSignatureState, stripAuthenticode } from "./authenticode";
import { checkSignature, signAdHoc } from "./macho";
import { cacheRoot, copyFromCache, keepNewest, nodeRuntime, touch, type NodeRuntime } from "./node-runtime";

export const BUN_VERSION = "1.4.4";

/** A platform's Bun, as npm publishes it, and `bun build --compile`'s name for the platform. */
export interface BunRuntime extends NodeRuntime {
  readonly target: string;
}

/** The platforms (Pulumi's names) whose plugin is a Bun executable, and the linux-x64 one the tests run. */
export const BUN_RUNTIMES = {
  "darwin-arm64": {
    package: "@oven/bun-darwin-aarch64",
    version: BUN_VERSION,
    integrity: "sha512-zW/hxwc8sJAILGwB5eTC4i48ouGXf0V4lrxmEOk3JIE6JkYVW1TZh1E2pIempqsezgW1sckTIIDudFON8bJ2Mw==",
    binary: "bin/bun",
    target: "bun-darwin-arm64",
  },
  "darwin-amd64": {
    package: "@oven/bun-darwin-x64",
    version: BUN_VERSION,
    integrity: "sha512-oKGcxLsvh4oHjAo28nPm8c/xN0o/OmGyj1IHYc94vprkWsW2hNg2keEZt5f40cI5Hvu4jDlSRTR0UNpv1UIAxw==",
    binary: "bin/bun",
    target: "bun-darwin-x64",
  },
  "windows-arm64": {
    package: "@oven/bun-windows-aarch64",
    version: BUN_VERSION,
    integrity: "sha512-n0ep5ZRPCZY1+dqFJpnnRUZB1wy4GYU6At8RF+pyzySCLjkN9R4rFh2PtBHAgF/lg1vOl3/CeER3pDM+p40ATA==",
    binary: "bin/bun.exe",
    target: "bun-windows-arm64",
  },
  "linux-amd64": {
    package: "@oven/bun-linux-x64",
    version: BUN_VERSION,
    integrity: "sha512-CHbbkmHVM28T1GFq+6GL4Ao4ujwwYwj1CxFFwEFzLanPfNsId9AhbIP0Q4reWuWBkGimUkoQygrK7Rgjtj3vog==",
    binary: "bin/bun",
    target: "bun-linux-x64",
  },
} as const satisfies Record<string, BunRuntime>;

/** The identifier of the ad hoc signature. */
export const SIGNING_IDENTIFIER = "pulumi-resource-messaging";

/** The Bun that compiles: linux-x64's, the release's build machine (the same binary is a runtime above). */
function compiler(): string {
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error(`the darwin plugins are compiled by Bun's linux-x64 build: this is ${process.platform}-${process.arch}`);
  return nodeRuntime(BUN_RUNTIMES["linux-amd64"]).binary;
}

/** Bun's licence, as its npm package states it (the package ships no licence file), and where Bun lists what it links. */
export function bunLicense(runtime: BunRuntime): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(nodeRuntime(runtime).packageDir, "package.json"), "utf8")) as { license: string };
  return [
    `This executable is Bun ${runtime.version ?? BUN_VERSION} (npm ${runtime.package}, ${manifest.license} licence) with the plugin inside.`,
    "",
    "Bun itself is MIT-licensed. It statically links JavaScriptCore and WebKit (LGPL-2) and other libraries; their",
    `licences, and how to relink Bun, are in Bun's LICENSE.md: https://github.com/oven-sh/bun/blob/bun-v${runtime.version ?? BUN_VERSION}/LICENSE.md`,
    "",
  ].join("\n");
}

// Executables kept a platform: each about 100 MB.
const KEPT = 3;

/**
 * The bundle at a path that depends only on its content. Bun writes the bundle's directory into
 * the executable (as the module's `__dirname`): compiled from here, every platform's executable
 * of one bundle embeds the same module, byte for byte, wherever the bundle was made.
 */
function stagedBundle(bundle: string, hash: string): string {
  const dir = path.join(os.tmpdir(), "pulumi-messaging-bun-sources");
  const staged = path.join(dir, hash, "plugin.js");
  if (!fs.existsSync(staged)) {
    fs.mkdirSync(path.dirname(staged), { recursive: true });
    const partial = `${staged}.tmp-${process.pid}`;
    fs.copyFileSync(bundle, partial);
    fs.renameSync(partial, staged);
    keepNewest(dir, KEPT, () => true);
  } else {
    touch(staged);
  }
  return staged;
}

/**
 * Writes `runtime`'s executable of `bundle` to `target` (mode 0755), signed ad hoc for darwin and
 * checked (every page hash), from the cache when made before.
 */
export async function makeBunExecutable(
  bundle: string,
  runtime: BunRuntime,
  target: string,
  name: string = SIGNING_IDENTIFIER,
): Promise<void> {
  const darwin = runtime.target.includes("darwin");
  const bundleHash = createHash("sha256").update(fs.readFileSync(bundle)).digest("hex").slice(0, 24);
  const key = createHash("sha256")
    .update(bundleHash)
    .update(runtime.integrity)
    .update(JSON.stringify({ target: runtime.target, signed: darwin ? SIGNING_IDENTIFIER : false }))
    .digest("hex")
    .slice(0, 24);
  const dir = path.join(cacheRoot(), "plugin-executables");
  const cached = path.join(dir, `bun-${runtime.target}-${BUN_VERSION}-${key}`);
  await copyFromCache(
    cached,
    target,
    (work) => {
      // The outfile's name is the module's name inside the executable: the plugin's, on every platform.
      const executable = path.join(work, name);
      const source = stagedBundle(bundle, bundleHash);
      execFileSync(
        compiler(),
        [
          "build",
          "--compile",
          `--target=${runtime.target}`,
          "--compile-executable-path",
          nodeRuntime(runtime).binary,
          source,
          "--outfile",
          executable,
        ],
        { stdio: "pipe", cwd: path.dirname(source) },
      );
      if (darwin) {
        const built = fs.readFileSync(executable);
        const as = checkSignature(built);
        const signed = as.adhoc && as.badPages === 0 ? built : signAdHoc(built, SIGNING_IDENTIFIER);
        const check = checkSignature(signed);
        if (!check.adhoc || check.badPages !== 0)
          throw new Error(`${runtime.target}: the ad hoc signature does not check (${JSON.stringify(check)})`);
        fs.writeFileSync(executable, signed);
      }
      if (runtime.target.includes("windows")) {
        // Bun's Windows build comes unsigned; whatever it carries, the release's executable is unsigned with a valid checksum.
        if (peSignatureState(fs.readFileSync(executable)).signed) stripAuthenticode(executable);
        const state = peSignatureState(fs.readFileSync(executable));
        if (state.checksum !== state.computed) stripAuthenticode(executable);
      }
      return executable;
    },
    () => keepNewest(dir, KEPT, (entry) => entry.startsWith(`bun-${runtime.target}-`)),
  );
}
