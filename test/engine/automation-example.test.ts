/**
 * examples/automation as a user runs it: `node deploy.js up | preview | destroy` in a folder
 * holding the script and the packed package, the real `pulumi` on PATH, a file backend, and
 * the emulator's settings in MESSAGING_BASE_URL / MESSAGING_API_KEY. The script's inline
 * program deploys the endpoints of examples/webhooks through the Automation API.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { countOperation, describeRealEngine, pulumiCliDir, useRealEngine } from "../support/real-engine";

const API_KEY = "sk_test_automation_example_5e1f";
const RECEIVER = "https://receiver.example.com/hooks";

describeRealEngine("examples/automation: the Automation API route", () => {
  const suite = useRealEngine(API_KEY);
  let project: string;
  let backend: string;

  /** `node deploy.js <args>` in the project, as a shell would run it. */
  function deploy(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    if (args[0] !== undefined && ["up", "preview", "destroy"].includes(args[0])) countOperation();
    const env = {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(MESSAGING_|PULUMI_)/.test(name))),
      PATH: `${pulumiCliDir()}${path.delimiter}${process.env.PATH ?? ""}`,
      PULUMI_HOME: path.join(backend, "..", "home"),
      PULUMI_BACKEND_URL: `file://${backend}`,
      PULUMI_CONFIG_PASSPHRASE: "automation-example",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_DISABLE_REGISTRY_RESOLVE: "true",
      MESSAGING_BASE_URL: suite.emulator.url,
      MESSAGING_API_KEY: API_KEY,
      RECEIVER_BASE_URL: RECEIVER,
    };
    const child = spawn(process.execPath, ["deploy.js", ...args], { cwd: project, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    return new Promise((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
  }

  beforeAll(() => {
    project = suite.project("examples/automation");
    backend = path.join(project, "..", `state-${path.basename(project)}`, "backend");
    fs.mkdirSync(backend, { recursive: true });
  });

  it("up creates both endpoints and prints their ids, the secrets masked", async () => {
    const up = await deploy(["up"]);
    expect(up.stderr).toBe("");
    expect(up.code).toBe(0);
    const endpoints = suite.emulator.endpoints();
    expect(endpoints.map((endpoint) => endpoint.url).sort()).toEqual([`${RECEIVER}/identity`, `${RECEIVER}/payments`]);
    const outputs = up.stdout.slice(up.stdout.lastIndexOf("\noutputs:\n"));
    for (const endpoint of endpoints) expect(outputs).toContain(endpoint.id);
    expect(outputs).toMatch(/^ {2}paymentsSigningSecret +\[secret\]$/m);
    expect(outputs).toMatch(/^ {2}identitySigningSecret +\[secret\]$/m);
    for (const endpoint of endpoints) expect(up.stdout).not.toContain(endpoint.secret);
  });

  it("preview of the unchanged program: no change, no service call", async () => {
    const calls = suite.emulator.requestCount();
    const preview = await deploy(["preview"]);
    expect(preview.code).toBe(0);
    // The stack, its two endpoints, and the stack's identity (provider/stack-identity.ts).
    expect(preview.stdout).toMatch(/4 unchanged/);
    expect(preview.stdout).not.toMatch(/to create|to update|to replace/);
    expect(suite.emulator.requestCount()).toBe(calls);
  });

  it("the API key, read from the environment, is nowhere in the stack's state or config", () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else files.push(file);
      }
    };
    walk(backend);
    for (const name of fs.readdirSync(project)) if (/^Pulumi\..*yaml$/.test(name)) files.push(path.join(project, name));
    expect(files.some((file) => file.endsWith(".json") && file.includes(`${path.sep}stacks${path.sep}`))).toBe(true);
    for (const file of files) expect(fs.readFileSync(file, "latin1")).not.toContain(API_KEY);
  });

  it("destroy removes them from the stack and keeps them in the service (retainOnDelete)", async () => {
    const destroy = await deploy(["destroy"]);
    expect(destroy.code).toBe(0);
    expect(destroy.stdout).toMatch(/deleted \([\d.]+s\)\[retain\]/);
    expect(suite.emulator.endpoints()).toHaveLength(2);
  });

  it("anything but up, preview or destroy is a usage error", async () => {
    const wrong = await deploy(["apply"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/usage: node deploy\.js up \| preview \| destroy/);
  });
});
