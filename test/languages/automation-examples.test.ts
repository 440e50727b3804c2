/**
 * examples/automation-python/deploy.py and examples/automation-go/main.go, run as a user runs
 * them (`python deploy.py up`, `go run . up`, here a built binary) against the emulator, with the
 * real `pulumi` on PATH and the plugin installed from its packed archive in a PULUMI_HOME of the
 * test's. Each runs up, up again and destroy, and shows what the examples promise: the stack's
 * config (and so its pinned identity) stays in the example's folder, so the second up is the same
 * stack and makes no call; the key comes from the environment and never reaches the config.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../scripts/repo-root";
import { run } from "../../scripts/release/run";
import { useRealEngine } from "../support/real-engine";
import { SDK_MODULE } from "./go-example";
import { describeLanguage, pythonExecutable } from "./toolchains";

/** The environment of a user's shell: the CLI on PATH, a file backend and a PULUMI_HOME holding the plugin. */
async function userEnv(scratch: string, suite: ReturnType<typeof useRealEngine>): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = {
    // Not npm's node_modules/.bin: the engine would take this repository's pulumi-resource-messaging from there.
    PATH: [
      process.env.PULUMI_MESSAGING_CLI_DIR!,
      ...(process.env.PATH ?? "").split(path.delimiter).filter((dir) => !dir.endsWith(`node_modules${path.sep}.bin`)),
    ].join(path.delimiter),
    HOME: process.env.HOME,
    LANG: "C.UTF-8",
    PULUMI_HOME: path.join(scratch, "pulumi-home"),
    PULUMI_BACKEND_URL: `file://${path.join(scratch, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: "automation-example",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    MESSAGING_API_KEY: suite.apiKey,
    MESSAGING_BASE_URL: suite.emulator.url,
    GOFLAGS: "-mod=mod",
    GOCACHE: process.env.GOCACHE ?? execFileSync("go", ["env", "GOCACHE"], { encoding: "utf8" }).trim(),
    GOMODCACHE: execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim(),
  };
  fs.mkdirSync(path.join(scratch, "state"), { recursive: true });
  const plugin = await suite.pluginArchive();
  execFileSync("pulumi", ["plugin", "install", "resource", "messaging", plugin.version, "--file", plugin.archive], { env, stdio: "pipe" });
  return env;
}

/** Runs the example's up twice and destroy; what a user relies on is checked after each. */
async function upTwiceAndDestroy(
  suite: ReturnType<typeof useRealEngine>,
  dir: string,
  run: (op: string) => Promise<string>,
): Promise<void> {
  const first = await run("up");
  expect(first).toMatch(/endpointId: we_/);
  expect(first).toMatch(/signingSecret: \[secret\]/);
  expect(suite.emulator.endpoints()).toHaveLength(1);
  expect(suite.emulator.batches()).toHaveLength(1);
  const config = fs.readFileSync(path.join(dir, "Pulumi.dev.yaml"), "utf8");
  const identity = /messaging:stackIdentity: (\S+)/.exec(config)?.[1];
  expect(identity).toMatch(/^[0-9a-f]{32}$/);
  expect(config).not.toContain(suite.apiKey);

  const calls = suite.emulator.requestCount();
  await run("up");
  expect(suite.emulator.requestCount()).toBe(calls);
  expect(fs.readFileSync(path.join(dir, "Pulumi.dev.yaml"), "utf8")).toContain(`messaging:stackIdentity: ${identity}`);

  await run("destroy");
  expect(suite.emulator.batches()).toHaveLength(1);
}

describeLanguage("python")("examples/automation-python: python deploy.py", () => {
  const suite = useRealEngine("sk_test_automation_python_71d4");
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-automation-python-"));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  test("up, up again (the same stack and identity, no call), destroy", async () => {
    const env = await userEnv(scratch, suite);
    const dir = path.join(scratch, "automation-python");
    fs.cpSync(path.join(REPO_ROOT, "examples", "automation-python"), dir, { recursive: true });
    // Asynchronously: the emulator answers from this process.
    await upTwiceAndDestroy(suite, dir, (op) => run(pythonExecutable(), ["deploy.py", op], { cwd: dir, env }));
  });
});

describeLanguage("go")("examples/automation-go: go run . (built)", () => {
  const suite = useRealEngine("sk_test_automation_go_3c85");
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-automation-go-"));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  test("up, up again (the same stack and identity, no call), destroy", async () => {
    const env = await userEnv(scratch, suite);
    const dir = path.join(scratch, "automation-go");
    fs.cpSync(path.join(REPO_ROOT, "examples", "automation-go"), dir, { recursive: true });
    // The SDK from this repository until it is published: the module path stays the example's.
    execFileSync("go", ["mod", "edit", `-replace=${SDK_MODULE}=${path.join(REPO_ROOT, "sdk", "go")}`], { cwd: dir, env });
    execFileSync("go", ["build", "-o", path.join(dir, "bin", "deploy"), "."], { cwd: dir, env, stdio: "pipe" });
    await upTwiceAndDestroy(suite, dir, (op) => run(path.join(dir, "bin", "deploy"), [op], { cwd: dir, env }));
  });
});
