/**
 * A released version, installed by name as a user installs it, on the machine this runs on: the
 * `verify-release` job runs it on Linux, macOS and Windows runners after the public release, and
 * test/languages/new-user.test.ts runs it on this machine against the local release.
 *
 * - npm: `pulumi-messaging` and `@pulumi-messaging/messaging` at the version, into a new project;
 * - PyPI: `pulumi_messaging` into a new venv, imported;
 * - Go: `go get` of the SDK's module at its tag, in a new module, and `go build` of its package;
 * - the plugin: `pulumi plugin install … --checksum` with this platform's sum from the release's
 *   checksums.txt, then started by the CLI (`pulumi package get-schema`), which proves the
 *   executable runs here with no `node` needed by it.
 *
 * Registries come from the environment as each tool reads them (npm_config_registry,
 * PIP_INDEX_URL, GOPROXY, PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES); `releaseDownloads` is where
 * checksums.txt is.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pythonVersion } from "./artifacts";
import { run } from "./run";

const GO_MODULE = "github.com/pulumi-messaging/pulumi-messaging/sdk/go";
const PLUGIN_SERVER = "github://api.github.com/pulumi-messaging/pulumi-messaging";

export interface VerifyOptions {
  readonly version: string;
  /** The release's downloads, holding checksums.txt: `https://github.com/<owner>/<repo>/releases/download/v<version>`. */
  readonly releaseDownloads: string;
  /** The environment every command runs with (default: this process's). */
  readonly env?: NodeJS.ProcessEnv;
  /** Where the scratch projects go (default: a new temporary directory, removed after). */
  readonly workDir?: string;
  /** Python to make the venv with (default `python3`, `python` on Windows). */
  readonly python?: string;
  readonly log?: (line: string) => void;
}

/** This machine's platform in the release's archive names. */
export function releasePlatform(): string {
  const system = process.platform === "win32" ? "windows" : process.platform;
  return `${system}-${process.arch === "x64" ? "amd64" : process.arch}`;
}

/** This platform's archive's sha256, from the release's checksums.txt. */
export async function publishedChecksum(releaseDownloads: string, version: string): Promise<string> {
  const response = await fetch(`${releaseDownloads}/checksums.txt`);
  if (!response.ok) throw new Error(`${releaseDownloads}/checksums.txt: ${response.status}`);
  const archive = `pulumi-resource-messaging-v${version}-${releasePlatform()}.tar.gz`;
  const line = (await response.text()).split("\n").find((entry) => entry.endsWith(`  ${archive}`));
  if (!line) throw new Error(`checksums.txt has no line for ${archive}`);
  return line.split(" ")[0];
}

/** Runs every check; throws on the first that fails, naming it. */
export async function verifyRelease(options: VerifyOptions): Promise<void> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const root = options.workDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-verify-"));
  const dir = (name: string): string => {
    fs.mkdirSync(path.join(root, name), { recursive: true });
    return path.join(root, name);
  };
  const { version } = options;
  try {
    const npmProject = dir("npm");
    fs.writeFileSync(path.join(npmProject, "package.json"), JSON.stringify({ name: "verify-release", private: true }));
    await run(
      "npm",
      ["install", "--no-audit", "--no-fund", "--loglevel=error", `pulumi-messaging@${version}`, `@pulumi-messaging/messaging@${version}`],
      { cwd: npmProject, env },
    );
    const installed = await run(
      "node",
      ["-e", "console.log(require('pulumi-messaging/package.json').version, require('@pulumi-messaging/messaging/package.json').version)"],
      { cwd: npmProject, env },
    );
    if (installed.trim() !== `${version} ${version}`) throw new Error(`npm installed ${installed.trim()}, not ${version}`);
    log(`npm: pulumi-messaging@${version} and @pulumi-messaging/messaging@${version} installed by name`);

    const venv = path.join(dir("pypi"), "venv");
    await run(options.python ?? (process.platform === "win32" ? "python" : "python3"), ["-m", "venv", venv], { cwd: root, env });
    const venvPython = process.platform === "win32" ? path.join(venv, "Scripts", "python.exe") : path.join(venv, "bin", "python");
    await run(
      venvPython,
      ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", `pulumi_messaging==${pythonVersion(version)}`],
      { cwd: root, env },
    );
    const imported = await run(
      venvPython,
      ["-c", "import importlib.metadata as m, pulumi_messaging; print(m.version('pulumi_messaging'))"],
      { cwd: root, env },
    );
    if (imported.trim() !== pythonVersion(version)) throw new Error(`pip installed pulumi_messaging ${imported.trim()}`);
    log(`PyPI: pulumi_messaging==${pythonVersion(version)} installed by name and imported`);

    const goProject = dir("go");
    await run("go", ["mod", "init", "verify-release"], { cwd: goProject, env });
    await run("go", ["get", `${GO_MODULE}@v${version}`], { cwd: goProject, env });
    await run("go", ["build", `${GO_MODULE}/messaging`], { cwd: goProject, env });
    log(`Go: ${GO_MODULE}@v${version} fetched by go get and built`);

    const sum = await publishedChecksum(options.releaseDownloads, version);
    const home = dir("pulumi-home");
    const pulumiEnv = { ...env, PULUMI_HOME: home };
    await run("pulumi", ["plugin", "install", "resource", "messaging", version, "--server", PLUGIN_SERVER, "--checksum", sum], {
      cwd: root,
      env: pulumiEnv,
    });
    const schema = JSON.parse(await run("pulumi", ["package", "get-schema", `messaging@${version}`], { cwd: root, env: pulumiEnv })) as {
      name: string;
      version: string;
    };
    if (schema.name !== "messaging" || schema.version !== version) throw new Error(`the plugin served ${schema.name} ${schema.version}`);
    log(`plugin: ${releasePlatform()} archive installed with --checksum ${sum}, started, and served its schema (${schema.version})`);
  } finally {
    if (!options.workDir) fs.rmSync(root, { recursive: true, force: true });
  }
}
