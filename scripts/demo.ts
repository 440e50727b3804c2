/**
 * `npm run demo`: the product's main job on the embedded default.
 *
 * Starts the emulator, then deploys examples/webhooks against it: with `pulumi up` and a
 * local file backend when a Pulumi CLI is on PATH, otherwise through the real
 * @pulumi/pulumi SDK and its dynamic-provider host (the local engine the tests use). Prints
 * the plan and the outputs with secrets masked, runs `up` again to show it changes nothing,
 * and feeds the endpoint secrets to a local receiver that verifies a signed event.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { EmulatorClient, startEmulator, type Emulator } from "../emulator";
import { createPackedProject } from "../engine/packed-project";
import { LocalStack } from "../engine/local-engine";
import type { EngineResult } from "../engine/plan";
import { REPO_ROOT } from "../engine/repo-root";
import { isSecretWrapper, wrapSecret } from "../engine/secrets";
import { createWebhookHandler } from "../receiver";

const DEMO_DIR = path.join(REPO_ROOT, ".demo");
const EXAMPLE = path.join(REPO_ROOT, "examples", "webhooks");

const mask = (secret: string) => `${secret.slice(0, secret.indexOf("_") + 1)}${"*".repeat(12)} (secret, masked)`;
const log = (line = "") => process.stdout.write(`${line}\n`);

/** A receiver for both example endpoints; each gets its handler once its secret is known. */
async function startReceiver() {
  const handlers: Record<string, http.RequestListener> = {};
  const received: string[] = [];
  const server = http.createServer((req, res) => {
    const handler = handlers[(req.url ?? "").replace(/^\/webhooks\//, "")];
    if (handler) handler(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return {
    url,
    received,
    /** Verifies `/webhooks/<name>` with the endpoint's secret from the stack outputs. */
    accept(name: string, secret: string): void {
      handlers[name] = createWebhookHandler({
        secret,
        onEvent: (event) => {
          received.push(`${name}: ${event.type ?? "(no type)"} ${event.id}, signature verified`);
        },
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function printSteps(title: string, result: EngineResult): void {
  log(`${title}:`);
  const symbol = (op: string): string =>
    (({ create: "+", same: "=", update: "~", refresh: "~", import: "=>" }) as Record<string, string>)[op] ??
    (op.startsWith("replace") ? "+-" : op.startsWith("delete") ? "-" : "?");
  // The resources' steps (the stack, its components and the default provider have theirs too).
  for (const step of result.steps.filter((s) => s.type.startsWith("pulumi-nodejs:dynamic"))) {
    const type = step.type.replace("pulumi-nodejs:dynamic/", "");
    const extra = step.replaces ? ` [diff: ${step.replaces.join(", ")}]` : "";
    log(
      `  ${symbol(step.op).padEnd(2)} ${step.op.padEnd(14)} ${type.padEnd(28)} ${step.name.padEnd(10)} ${step.id || "(known after up)"}${extra}`,
    );
  }
  for (const error of result.errors) log(`  error: ${error}`);
  for (const diagnostic of result.diagnostics.filter((d) => d.severity === "warning")) log(`  warning: ${diagnostic.message}`);
}

function printOutputs(outputs: Record<string, unknown>): void {
  log("outputs:");
  for (const [name, value] of Object.entries(outputs)) {
    log(`  ${name.padEnd(24)} ${isSecretWrapper(value) ? mask(String(value.value)) : String(value)}`);
  }
}

async function emitEvent(emulator: Emulator, type: string): Promise<void> {
  const control = new EmulatorClient({ baseUrl: emulator.url, apiKey: emulator.apiKey });
  try {
    await control.emitEvent({ type, data: { amount: 1200, currency: "KES" } });
  } catch (error) {
    throw new Error(`emitting ${type} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    await control.close();
  }
}

function hasPulumiCli(): boolean {
  return spawnSync("pulumi", ["version"], { stdio: "ignore" }).status === 0;
}

/** The real path: `pulumi up` with a local file backend, in a project using the packed package. */
function runWithCli(projectDir: string, emulator: Emulator, receiverUrl: string): Record<string, unknown> {
  const env = { ...process.env, PULUMI_CONFIG_PASSPHRASE: "demo-only-passphrase", PULUMI_SKIP_UPDATE_CHECK: "true" };
  const pulumi = (...args: string[]) =>
    execFileSync("pulumi", args, { cwd: projectDir, env, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
  fs.mkdirSync(path.join(DEMO_DIR, "backend"), { recursive: true });
  pulumi("login", `file://${path.join(DEMO_DIR, "backend")}`);
  pulumi("stack", "init", "dev");
  pulumi("config", "set", "--secret", "messaging:apiKey", emulator.apiKey);
  pulumi("config", "set", "messaging:baseUrl", emulator.url);
  pulumi("config", "set", "receiverBaseUrl", receiverUrl);
  log(pulumi("up", "--yes", "--skip-preview"));
  log(pulumi("up", "--yes"));
  const outputs = JSON.parse(pulumi("stack", "output", "--json", "--show-secrets")) as Record<string, string>;
  const secretNames = Object.keys(outputs).filter((name) => name.endsWith("SigningSecret"));
  return Object.fromEntries(Object.entries(outputs).map(([name, value]) => [name, secretNames.includes(name) ? wrapSecret(value) : value]));
}

async function runWithLocalEngine(projectDir: string, emulator: Emulator, receiverUrl: string): Promise<Record<string, unknown>> {
  const stack = new LocalStack({
    projectDir,
    stateFile: path.join(DEMO_DIR, "state", "dev.json"),
    config: { "messaging:apiKey": emulator.apiKey, "messaging:baseUrl": emulator.url, "messaging-webhooks:receiverBaseUrl": receiverUrl },
    secretKeys: ["messaging:apiKey"],
  });
  printSteps("preview", await stack.preview());
  const up = await stack.up();
  printSteps("up", up);
  if (!up.ok) throw new Error("pulumi up failed");
  const calls = emulator.requestCount();
  const again = await stack.up();
  printSteps("second up (unchanged program)", again);
  if (!again.ok) throw new Error("second pulumi up failed");
  log(`  service calls during the second up: ${emulator.requestCount() - calls}`);
  return up.outputs;
}

async function main(): Promise<void> {
  fs.rmSync(DEMO_DIR, { recursive: true, force: true });
  fs.mkdirSync(DEMO_DIR, { recursive: true });
  const emulator = await startEmulator({ apiKey: `sk_test_demo_${randomBytes(6).toString("hex")}` });
  const receiver = await startReceiver();
  try {
    log("pulumi-messaging demo");
    log(`  emulator: ${emulator.url} (embedded)`);
    log(`  receiver: ${receiver.url}`);
    const projectDir = createPackedProject(EXAMPLE, { parentDir: DEMO_DIR });
    log(`  project:  examples/webhooks, with the npm pack tarball installed (${path.relative(REPO_ROOT, projectDir)})`);
    log();

    let outputs: Record<string, unknown>;
    if (hasPulumiCli()) {
      log("Pulumi CLI found: running `pulumi up` with a local file backend.");
      outputs = runWithCli(projectDir, emulator, receiver.url);
    } else {
      log("No Pulumi CLI on PATH: running the same program through the real @pulumi/pulumi SDK and its");
      log("dynamic-provider host over gRPC (the local engine), as `pulumi up` would.");
      log();
      outputs = await runWithLocalEngine(projectDir, emulator, receiver.url);
    }
    printOutputs(outputs);
    log();

    // Stack outputs feed the receiver: it verifies signatures with the endpoint secrets.
    for (const [name, key] of [
      ["payments", "paymentsSigningSecret"],
      ["identity", "identitySigningSecret"],
    ] as const) {
      const value = outputs[key];
      receiver.accept(name, String(isSecretWrapper(value) ? value.value : value));
    }
    await emitEvent(emulator, "payment.succeeded");
    await emitEvent(emulator, "identity.verification.created");
    log("events from the emulator, checked by the receiver with the secrets from the stack outputs:");
    for (const line of receiver.received) log(`  ${line}`);
    if (receiver.received.length !== 2) throw new Error(`expected 2 verified deliveries, got ${receiver.received.length}`);
    log();
    log(
      `endpoints in the emulator: ${emulator
        .endpoints()
        .map((endpoint) => endpoint.id)
        .join(", ")}`,
    );
  } finally {
    await receiver.close();
    await emulator.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
