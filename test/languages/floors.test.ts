/**
 * The floor matrix (test/languages/floors.ts): each generated SDK deployed with the oldest Pulumi
 * SDK it declares, on the toolchain a user of that floor has, and with the newest. Every cell runs
 * examples/<language> through the whole lifecycle (test/languages/example-lifecycle.ts) under the
 * real CLI, with the plugin installed from its packed archive:
 *
 * | SDK            | floor                                          | newest                                               |
 * | -------------- | ---------------------------------------------- | ---------------------------------------------------- |
 * | Python         | `pulumi` 3.231.0 on Python 3.11 (here)         | 3.272.0 (python-program.test.ts)                     |
 * | Go             | sdk/v3 v3.213.0 built by Go 1.24.0 (here)      | v3.274.1, this machine's Go (go-program.test.ts)     |
 * | TypeScript SDK | `@pulumi/pulumi` 3.142.0 on Node.js 20         | 3.276.0 on Node.js 22 (here)                         |
 * |                | (typescript-sdk-program.test.ts)               |                                                      |
 *
 * Each cell first checks that it runs the versions it names: a floor that silently resolved to a
 * newer release would prove nothing.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { SDK_FLOORS } from "../../plugin/schema";
import { nodeRuntime, NODE_RUNTIMES, cacheRoot } from "../../scripts/release/plugin/node-runtime";
import { REPO_ROOT } from "../../scripts/repo-root";
import { inlineProgramFile } from "../support/harness/stack";
import { useRealEngine } from "../support/real-engine";
import { exampleLifecycle } from "./example-lifecycle";
import { goFloor, MATRIX } from "./floors";
import { SDK_MODULE } from "./go-example";
import { compileNodejsSdk } from "./nodejs-sdk";
import { describeLanguage, languagesRoot, nodeSdkDependencies } from "./toolchains";

// How the tier's set-up (jest's globalSetup, plain JS) makes a venv over a cached one with the SDK installed.
const { sdkVenv } = require("./prepare-toolchains") as { sdkVenv(base: string, dir: string): string };

const PYTHON_DRIVER = path.join(__dirname, "python", "inline_program.py");
const GO_DRIVER = path.join(__dirname, "go", "inline_program.go");

function run(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
  return execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...options });
}

/** A cached directory made once by `make` (the marker is written last). */
function cached(name: string, make: (dir: string) => void): string {
  const dir = path.join(cacheRoot(), name);
  if (!fs.existsSync(path.join(dir, ".complete"))) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    make(dir);
    fs.writeFileSync(path.join(dir, ".complete"), "");
  }
  return dir;
}

test("the matrix's floors are the ones the SDKs declare", () => {
  expect(JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "sdk", "nodejs", "package.json"), "utf8")).dependencies["@pulumi/pulumi"]).toBe(
    `^${MATRIX.nodejs.floor.pulumi}`,
  );
  const pyproject = fs.readFileSync(path.join(REPO_ROOT, "sdk", "python", "pyproject.toml"), "utf8");
  expect(pyproject).toContain(`"pulumi>=${MATRIX.python.floor.pulumi},<4.0.0"`);
  expect(pyproject).toContain(`"parver>=${SDK_FLOORS.python.parver}"`);
  expect(pyproject).toContain(`requires-python = ">=${SDK_FLOORS.python.interpreter}"`);
  expect(goFloor()).toEqual({ sdk: "v3.213.0", go: "1.24.0" });
  expect(MATRIX.go.floor.toolchain).toBe(`go${goFloor().go}`);
  // The TypeScript SDK's floor cell is typescript-sdk-program.test.ts, with the tier's @pulumi/pulumi, on this Node.js.
  expect(JSON.parse(fs.readFileSync(path.join(nodeSdkDependencies(), "@pulumi", "pulumi", "package.json"), "utf8")).version).toBe(
    MATRIX.nodejs.floor.pulumi,
  );
  expect(process.versions.node.split(".")[0]).toBe(MATRIX.nodejs.floor.node);
});

describeLanguage("python")(`Python floor: pulumi ${MATRIX.python.floor.pulumi}`, () => {
  const suite = useRealEngine("sk_test_floor_python_6a1e");

  test("examples/python deploys with the SDK installed over the floor's pulumi", async () => {
    const base = cached(
      `python-${MATRIX.python.floor.python}-venv-pulumi-${MATRIX.python.floor.pulumi}-floor-parver-${SDK_FLOORS.python.parver}-wheel`,
      (venv) => {
        run("python3", ["-m", "venv", venv]);
        // parver at the SDK's floor for it too (sdk/python/pyproject.toml); semver is the one pulumi pins.
        run(path.join(venv, "bin", "python"), [
          "-m",
          "pip",
          "install",
          "--quiet",
          `pulumi==${MATRIX.python.floor.pulumi}`,
          `parver==${SDK_FLOORS.python.parver}`,
          "setuptools>=61",
          "wheel",
        ]);
      },
    );
    // The SDK into a venv of this run that sees the cached one's packages, as the tier's set-up does.
    const python = sdkVenv(base, fs.mkdtempSync(path.join(languagesRoot(), "python-floor-")));
    expect(
      run(python, ["-c", "import importlib.metadata as m, sys; print(m.version('pulumi'), '%d.%d' % sys.version_info[:2])"]).trim(),
    ).toBe(`${MATRIX.python.floor.pulumi} ${MATRIX.python.floor.python}`);

    const stack = await suite.stack("examples/python", {
      plugin: true,
      config: { receiverUrl: "https://hooks.example.com/python-floor" },
      inlineRunner: (request) => [python, PYTHON_DRIVER, request],
    });
    await exampleLifecycle(suite, stack, "https://hooks.example.com/python-floor");
  });
});

describeLanguage("go")(`Go floor: sdk/v3 ${goFloor().sdk} built by ${MATRIX.go.floor.toolchain}`, () => {
  const suite = useRealEngine("sk_test_floor_go_2b9c");

  test("examples/go, in a module of go 1.24.0 requiring nothing newer, builds with Go 1.24.0 and deploys", async () => {
    const dir = fs.mkdtempSync(path.join(languagesRoot(), "go-floor-"));
    for (const file of ["Pulumi.yaml", "main.go"]) fs.copyFileSync(path.join(REPO_ROOT, "examples", "go", file), path.join(dir, file));
    fs.copyFileSync(GO_DRIVER, path.join(dir, "inline_program.go"));
    const env = { ...process.env, GOTOOLCHAIN: MATRIX.go.floor.toolchain, GOFLAGS: "-mod=mod" };
    const go = (...args: string[]) => run("go", args, { cwd: dir, env });
    go("mod", "init", "messaging-go");
    go(
      "mod",
      "edit",
      `-go=${goFloor().go}`,
      `-require=${SDK_MODULE}@v0.1.0`,
      `-replace=${SDK_MODULE}=${path.join(REPO_ROOT, "sdk", "go")}`,
      `-require=github.com/pulumi/pulumi/sdk/v3@${goFloor().sdk}`,
    );
    go("mod", "tidy");
    expect(go("version")).toMatch(new RegExp(`^go version ${MATRIX.go.floor.toolchain} `));
    // Minimal version selection kept the floor: nothing the SDK or the program needs asks for a newer sdk/v3.
    expect(go("list", "-m", "-f", "{{.Version}}", "github.com/pulumi/pulumi/sdk/v3").trim()).toBe(goFloor().sdk);
    expect(/^go (\S+)$/m.exec(fs.readFileSync(path.join(dir, "go.mod"), "utf8"))?.[1]).toBe(goFloor().go);
    const binary = path.join(dir, "bin", "messaging-go");
    go("build", "-o", binary, ".");

    const stack = await suite.stack("examples/go", {
      plugin: true,
      config: { receiverUrl: "https://hooks.example.com/go-floor" },
      projectDir: dir,
      inlineRunner: (request) => [binary, "--inline-request", request],
    });
    await exampleLifecycle(suite, stack, "https://hooks.example.com/go-floor");
  });
});

describeLanguage("nodejs")(
  `TypeScript SDK newest: @pulumi/pulumi ${MATRIX.nodejs.newest.pulumi} on Node.js ${MATRIX.nodejs.newest.node}`,
  () => {
    const suite = useRealEngine("sk_test_newest_tssdk_5d30");

    test("examples/typescript-sdk compiles strict against it and deploys, run by Node.js 22", async () => {
      const node22 = nodeRuntime(NODE_RUNTIMES["linux-amd64"]).binary;
      expect(run(node22, ["--version"]).trim().split(".")[0]).toBe(`v${MATRIX.nodejs.newest.node}`);
      const deps = cached(`node-pulumi-${MATRIX.nodejs.newest.pulumi}`, (dir) => {
        fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "node-sdk-newest", private: true }));
        run(
          "npm",
          [
            "install",
            "--no-audit",
            "--no-fund",
            "--ignore-scripts",
            "--loglevel=error",
            `@pulumi/pulumi@${MATRIX.nodejs.newest.pulumi}`,
            "@types/node@22",
          ],
          {
            cwd: dir,
            env: { ...process.env, PATH: `${path.dirname(node22)}${path.delimiter}${process.env.PATH ?? ""}` },
          },
        );
      });
      const modules = path.join(deps, "node_modules");
      const scratch = fs.mkdtempSync(path.join(languagesRoot(), "tssdk-newest-"));
      const sdk = compileNodejsSdk(scratch, path.join(REPO_ROOT, "sdk", "nodejs"), modules);
      expect(sdk.diagnostics).toBe("");

      const project = fs.mkdtempSync(path.join(scratch, "project-"));
      fs.cpSync(path.join(REPO_ROOT, "examples", "typescript-sdk"), project, { recursive: true });
      const projectModules = path.join(project, "node_modules");
      fs.mkdirSync(path.join(projectModules, "@pulumi-messaging"), { recursive: true });
      for (const entry of fs.readdirSync(modules)) {
        if (!entry.startsWith(".")) fs.symlinkSync(path.join(modules, entry), path.join(projectModules, entry), "junction");
      }
      fs.symlinkSync(sdk.packageDir, path.join(projectModules, "@pulumi-messaging", "messaging"), "junction");
      fs.symlinkSync(path.join(REPO_ROOT, "node_modules", "typescript"), path.join(projectModules, "typescript"), "junction");
      expect(JSON.parse(fs.readFileSync(path.join(projectModules, "@pulumi", "pulumi", "package.json"), "utf8")).version).toBe(
        MATRIX.nodejs.newest.pulumi,
      );

      const stack = await suite.stack("examples/typescript-sdk", {
        plugin: true,
        config: { receiverUrl: "https://hooks.example.com/tssdk-newest" },
        projectDir: project,
        inlineRunner: (request) => [node22, inlineProgramFile(), request],
      });
      await exampleLifecycle(suite, stack, "https://hooks.example.com/tssdk-newest");
    });
  },
);
