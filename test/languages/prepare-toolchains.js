"use strict";
// Jest globalSetup of the languages tier: the real Pulumi CLI (test/find-pulumi-cli.js), then
// what each language's programs need, made once per run and handed to the workers in variables:
// - Python: a venv of this run (PULUMI_MESSAGING_PYTHON) with the generated SDK (sdk/python)
//   installed by pip, layered over a cached venv holding `pulumi` from PyPI (pinned below), the
//   SDK's other requirement `parver`, and their dependencies, so a run pays for one SDK install, not for grpcio;
// - Node.js: @pulumi/pulumi at the version the generated nodejs SDK requires, installed once
//   from the npm registry into the cache (PULUMI_MESSAGING_NODE_SDK_DEPS);
// - Go: the `go` on PATH (its module and build caches are Go's own).
// Without Python or Go, outside CI the tier's tests of that language are skipped saying why
// (PULUMI_MESSAGING_LANGUAGES_SKIP); with CI=true that is a failure, as a missing CLI is.
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const findPulumiCli = require("../find-pulumi-cli.js");

/** `pulumi` from PyPI: the newest release there at or below the CLI's (3.274.1 is not on PyPI). */
const PYTHON_PULUMI = "3.272.0";
/**
 * @pulumi/pulumi for the nodejs SDK: its floor (`^3.142.0` in sdk/nodejs/package.json, plugin/schema.ts SDK_FLOORS), on
 * this machine's Node.js 20: the floor matrix's TypeScript cell (test/languages/floors.test.ts).
 */
const NODE_PULUMI = "3.142.0";

const REPO = path.join(__dirname, "..", "..");
const CACHE =
  process.env.PULUMI_MESSAGING_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-messaging");

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed (${result.error ?? result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

function found(command, args) {
  const result = spawnSync(command, args, { encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** The cached venv with `pulumi`, made once (the marker file is written last). */
function basePythonVenv() {
  // Keyed by Python's version too: a venv breaks when the Python it was made from changes.
  const python = run("python3", ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"]).trim();
  const venv = path.join(CACHE, `python-${python}-venv-pulumi-${PYTHON_PULUMI}-parver`);
  const marker = path.join(venv, ".complete");
  if (!fs.existsSync(marker)) {
    fs.rmSync(venv, { recursive: true, force: true });
    run("python3", ["-m", "venv", venv]);
    run(path.join(venv, "bin", "python"), [
      "-m",
      "pip",
      "install",
      "--quiet",
      `pulumi==${PYTHON_PULUMI}`,
      "parver>=0.2.1",
      "setuptools>=61",
      "wheel",
    ]);
    fs.writeFileSync(marker, "");
  }
  return venv;
}

/**
 * A venv at `dir` that sees the packages of the venv `base` (a .pth line) and has the SDK
 * installed by `base`'s pip from a copy of its folder, as a user would; its python.
 */
function sdkVenv(base, dir) {
  run("python3", ["-m", "venv", "--without-pip", dir]);
  const python = path.join(dir, "bin", "python");
  const sitePackages = (python) => run(python, ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).trim();
  fs.writeFileSync(path.join(sitePackages(python), "pulumi-messaging-base.pth"), `${sitePackages(path.join(base, "bin", "python"))}\n`);
  const sdkCopy = path.join(dir, "sdk-python");
  fs.cpSync(path.join(REPO, "sdk", "python"), sdkCopy, { recursive: true });
  run(path.join(base, "bin", "python"), [
    "-m",
    "pip",
    "install",
    "--quiet",
    "--no-deps",
    "--no-build-isolation",
    "--target",
    sitePackages(python),
    sdkCopy,
  ]);
  return python;
}

/** This run's venv, over the cached one. */
function runPythonVenv(root) {
  return sdkVenv(basePythonVenv(), path.join(root, "venv"));
}

/** node_modules with @pulumi/pulumi for the nodejs SDK, made once. */
function nodeSdkDeps() {
  const dir = path.join(CACHE, `node-pulumi-${NODE_PULUMI}`);
  const marker = path.join(dir, ".complete");
  if (!fs.existsSync(marker)) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "node-sdk-deps", private: true }));
    run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", `@pulumi/pulumi@${NODE_PULUMI}`, "@types/node@20"], { cwd: dir });
    fs.writeFileSync(marker, "");
  }
  return path.join(dir, "node_modules");
}

module.exports = async function prepareToolchains() {
  await findPulumiCli();
  // No CLI (outside CI; in CI that has already failed): every test of the tier is skipped.
  if (process.env.PULUMI_MESSAGING_REAL_ENGINE_SKIP) return;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-languages-"));
  process.env.PULUMI_MESSAGING_LANGUAGES_ROOT = root;
  const missing = [];
  if (!found("python3", ["--version"])) missing.push("python3 (Python 3.10 or later) is not on PATH");
  if (!found("go", ["version"])) missing.push("go (Go 1.25 or later) is not on PATH");
  if (missing.length && process.env.CI === "true") throw new Error(`${missing.join("; ")}: CI runs the languages tier and needs them`);
  // A toolchain that is there but cannot make what its tests need (no ensurepip, no registry):
  // in CI a failure; elsewhere that language's tests are skipped, saying why.
  const prepare = (language, make) => {
    try {
      make();
    } catch (error) {
      if (process.env.CI === "true") throw error;
      missing.push(`${language}: ${String(error.message).split("\n")[0]}`);
    }
  };
  if (!missing.some((reason) => reason.startsWith("python3"))) {
    prepare("python3", () => (process.env.PULUMI_MESSAGING_PYTHON = runPythonVenv(root)));
  }
  prepare("node", () => (process.env.PULUMI_MESSAGING_NODE_SDK_DEPS = nodeSdkDeps()));
  if (missing.length) process.env.PULUMI_MESSAGING_LANGUAGES_SKIP = missing.join("; ");
};

// test/languages/floors.test.ts makes its floor venv the same way.
module.exports.sdkVenv = sdkVenv;
