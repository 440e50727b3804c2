/**
 * Every artifact of a release, built at the one version package.json names (the SDKs and the
 * schema must say the same, else the SDKs are stale: `npm run sdk:generate`):
 * - npm: `pulumi-messaging` (`npm pack` of this repository) and the nodejs SDK
 *   `@pulumi-messaging/messaging` (sdk/nodejs compiled by its own `tsc` into bin/, packed from
 *   there, as Pulumi's providers publish theirs);
 * - Python: the SDK's wheel and sdist (`python -m build`);
 * - Go: sdk/go as the module proxy serves it at the tag `sdk/go/v<version>` (a proxy directory);
 * - the plugin: one archive a platform (scripts/release/pack-plugin.ts) and `checksums.txt` (sha256).
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { packPlugin, PLATFORMS } from "./pack-plugin";
import { REPO_ROOT } from "../repo-root";
import { pythonReleaseTools } from "./python-tools";
import { run } from "./run";

export const GO_MODULE = "github.com/pulumi-messaging/pulumi-messaging/sdk/go";

export interface ReleaseArtifacts {
  readonly version: string;
  readonly dir: string;
  readonly npm: { readonly root: string; readonly sdk: string };
  readonly python: { readonly wheel: string; readonly sdist: string };
  /** The Go module at its tag: a directory laid out as `GOPROXY=file://` reads it, and the zip in it. */
  readonly go: { readonly module: string; readonly version: string; readonly tag: string; readonly proxyDir: string; readonly zip: string };
  /** The plugin archives and `checksums.txt`: what the release location holds. */
  readonly release: { readonly archives: readonly string[]; readonly checksums: string };
}

const readJson = (file: string): Record<string, unknown> => JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;

/**
 * The Python SDK's version for a release's: PEP 440 spells a prerelease without the dash
 * (`1.2.3-rc.1` is `1.2.3rc1`, `-alpha.1` `a1`, `-beta.1` `b1`), which PyPI then lists as a pre-release.
 */
export function pythonVersion(version: string): string {
  const match = /^(\d+\.\d+\.\d+)(?:-(alpha|beta|rc)\.(\d+))?$/.exec(version);
  if (!match) throw new Error(`${version}: a release version is <major>.<minor>.<patch>, or that with -alpha.N, -beta.N or -rc.N`);
  const [, release, pre, number] = match;
  return pre ? `${release}${{ alpha: "a", beta: "b", rc: "rc" }[pre]}${number}` : release;
}

/** package.json's version, after checking that the SDKs and their schema carry it too. */
export function releaseVersion(): string {
  const version = String(readJson(path.join(REPO_ROOT, "package.json")).version);
  const pyproject = /^\s*version = "([^"]+)"/m.exec(fs.readFileSync(path.join(REPO_ROOT, "sdk", "python", "pyproject.toml"), "utf8"))?.[1];
  const found = {
    "sdk/schema.json": readJson(path.join(REPO_ROOT, "sdk", "schema.json")).version,
    "sdk/nodejs/package.json": readJson(path.join(REPO_ROOT, "sdk", "nodejs", "package.json")).version,
    "sdk/python/pyproject.toml": pyproject,
    "sdk/go/messaging/pulumi-plugin.json": readJson(path.join(REPO_ROOT, "sdk", "go", "messaging", "pulumi-plugin.json")).version,
  };
  const expected = (file: string): string => (file.endsWith("pyproject.toml") ? pythonVersion(version) : version);
  const stale = Object.entries(found).filter(([file, value]) => value !== expected(file));
  if (stale.length)
    throw new Error(
      `package.json says ${version}, but ${stale.map(([file, value]) => `${file} says ${String(value)}`).join(", ")}: run npm run sdk:generate`,
    );
  return version;
}

/** `npm pack` of `dir` into `out`; the tarball's path. */
async function npmPack(dir: string, out: string): Promise<string> {
  const packed = JSON.parse(
    await run("npm", ["pack", dir, "--pack-destination", out, "--json", "--loglevel=error"], { cwd: REPO_ROOT }),
  ) as Array<{
    filename: string;
  }>;
  return path.join(out, packed[0].filename);
}

/** The nodejs SDK compiled in a copy of sdk/nodejs, its package.json, README and LICENSE beside the output. */
export async function nodejsSdk(work: string, out: string): Promise<string> {
  const dir = path.join(work, "nodejs");
  fs.cpSync(path.join(REPO_ROOT, "sdk", "nodejs"), dir, { recursive: true });
  await run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], { cwd: dir });
  await run(process.execPath, [path.join(dir, "node_modules", "typescript", "bin", "tsc")], { cwd: dir });
  for (const file of ["package.json", "README.md"]) fs.copyFileSync(path.join(dir, file), path.join(dir, "bin", file));
  fs.copyFileSync(path.join(REPO_ROOT, "LICENSE"), path.join(dir, "bin", "LICENSE"));
  return npmPack(path.join(dir, "bin"), out);
}

/** The Python SDK's wheel and sdist, built from a copy of sdk/python with the LICENSE beside it. */
export async function pythonSdk(work: string, out: string): Promise<{ wheel: string; sdist: string }> {
  const dir = path.join(work, "python");
  fs.cpSync(path.join(REPO_ROOT, "sdk", "python"), dir, { recursive: true });
  fs.copyFileSync(path.join(REPO_ROOT, "LICENSE"), path.join(dir, "LICENSE"));
  const tools = await pythonReleaseTools();
  // No isolation: the pinned setuptools of the tools' venv builds it, with no download per build.
  await run(path.join(tools, "python"), ["-m", "build", "--no-isolation", "--wheel", "--sdist", "--outdir", out, dir]);
  const built = fs.readdirSync(out);
  const find = (suffix: string): string =>
    path.join(
      out,
      built.find((file) => file.startsWith("pulumi_messaging-") && file.endsWith(suffix))!,
    );
  return { wheel: find("-py3-none-any.whl"), sdist: find(".tar.gz") };
}

/** sdk/go as the proxy serves its tag (scripts/pulumi-cli/gomodproxy). */
async function goModule(version: string, out: string): Promise<ReleaseArtifacts["go"]> {
  const proxyDir = path.join(out, "goproxy");
  const zip = (
    await run("go", ["run", "./gomodproxy", "-dir", path.join(REPO_ROOT, "sdk", "go"), "-version", `v${version}`, "-out", proxyDir], {
      cwd: path.join(REPO_ROOT, "scripts", "pulumi-cli"),
    })
  ).trim();
  return { module: GO_MODULE, version: `v${version}`, tag: `sdk/go/v${version}`, proxyDir, zip };
}

/** `sha256sum`'s format: `<hex>  <name>` a line. */
function checksums(files: readonly string[], out: string): string {
  const file = path.join(out, "checksums.txt");
  const lines = files.map((archive) => `${createHash("sha256").update(fs.readFileSync(archive)).digest("hex")}  ${path.basename(archive)}`);
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/** Builds every artifact into `dir` (emptied first). */
export async function buildArtifacts(dir: string): Promise<ReleaseArtifacts> {
  const version = releaseVersion();
  fs.rmSync(dir, { recursive: true, force: true });
  const work = path.join(dir, "work");
  const out = (name: string): string => {
    fs.mkdirSync(path.join(dir, name), { recursive: true });
    return path.join(dir, name);
  };
  fs.mkdirSync(work, { recursive: true });
  const npmOut = out("npm");
  const [root, sdk, python, go, plugin] = await Promise.all([
    npmPack(REPO_ROOT, npmOut),
    nodejsSdk(work, npmOut),
    pythonSdk(work, out("pypi")),
    goModule(version, dir),
    packPlugin(path.join(work, "plugin"), PLATFORMS),
  ]);
  const releaseDir = out("release");
  const archives = Object.values(plugin.archives).map((archive) => {
    const target = path.join(releaseDir, path.basename(archive));
    fs.renameSync(archive, target);
    return target;
  });
  fs.rmSync(work, { recursive: true, force: true });
  const artifacts = { version, dir, npm: { root, sdk }, python, go, release: { archives, checksums: checksums(archives, releaseDir) } };
  writeManifest(artifacts);
  return artifacts;
}

const MANIFEST = "artifacts.json";

/** Records what was built, paths relative to the directory, so a later job can publish it as built (./public.ts). */
function writeManifest(artifacts: ReleaseArtifacts): void {
  const relative = (value: unknown): unknown =>
    typeof value === "string" && path.isAbsolute(value)
      ? path.relative(artifacts.dir, value).split(path.sep).join("/")
      : Array.isArray(value)
        ? value.map(relative)
        : value && typeof value === "object"
          ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, relative(inner)]))
          : value;
  const { dir: _dir, ...rest } = artifacts;
  fs.writeFileSync(path.join(artifacts.dir, MANIFEST), `${JSON.stringify(relative(rest), null, 2)}\n`);
}

/** The artifacts {@link buildArtifacts} wrote into `dir` (copied there from another job, say), every file checked present. */
export function loadArtifacts(dir: string): ReleaseArtifacts {
  const absolute = (value: unknown, key = ""): unknown =>
    typeof value === "string" && key !== "version" && key !== "module" && key !== "tag"
      ? path.join(dir, ...value.split("/"))
      : Array.isArray(value)
        ? value.map((inner) => absolute(inner))
        : value && typeof value === "object"
          ? Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, absolute(inner, name)]))
          : value;
  const manifest = absolute(JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), "utf8"))) as Omit<ReleaseArtifacts, "dir">;
  const artifacts = { ...manifest, dir } as ReleaseArtifacts;
  const missing = artifactFiles(artifacts).filter((file) => !fs.existsSync(file));
  if (missing.length) throw new Error(`${dir}: ${MANIFEST} names files that are not there: ${missing.join(", ")}`);
  return artifacts;
}

/** Every file of a release: the npm tarballs, the wheel and sdist, the Go module's zip, the plugin archives and checksums.txt. */
export function artifactFiles(artifacts: ReleaseArtifacts): string[] {
  return [
    artifacts.npm.root,
    artifacts.npm.sdk,
    artifacts.python.wheel,
    artifacts.python.sdist,
    artifacts.go.zip,
    ...artifacts.release.archives,
    artifacts.release.checksums,
  ];
}
