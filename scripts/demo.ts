/**
 * `npm run demo`: the product's main job on the embedded default.
 *
 * Starts the emulator, then deploys examples/webhooks against it with the real `pulumi` CLI
 * (found on PATH or built by `npm run pulumi:path`), on a file backend under .demo/:
 * `preview`, `up`, `up` again (no changes, no service calls), `destroy` (the endpoints are
 * retained, and said so). Prints what `pulumi` prints, the endpoint ids with the secrets
 * masked, and feeds the secrets from the stack outputs to a local receiver that verifies
 * signed events.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { EmulatorClient, startEmulator, type Emulator } from "../emulator";
import { createWebhookHandler } from "../receiver";
import { requirePulumiCli } from "./pulumi/cli-dir";
import { createPackedProject } from "./pulumi/packed-project";
import { REPO_ROOT } from "./pulumi/repo-root";
import { PulumiStack, type OperationResult } from "./pulumi/stack";

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

/** Prints what `pulumi` printed, indented, and stops the demo if the command failed. */
function printOperation(title: string, result: OperationResult): void {
  log(`$ ${title}`);
  for (const line of result.text.trimEnd().split("\n")) log(`  ${line}`);
  log();
  if (!result.ok) throw new Error(`${title} failed: ${result.error}`);
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

async function main(): Promise<void> {
  fs.rmSync(DEMO_DIR, { recursive: true, force: true });
  fs.mkdirSync(DEMO_DIR, { recursive: true });
  const cliDir = requirePulumiCli();
  const emulator = await startEmulator({ apiKey: `sk_test_demo_${randomBytes(6).toString("hex")}` });
  const receiver = await startReceiver();
  try {
    log("pulumi-messaging demo");
    log(`  emulator: ${emulator.url} (embedded)`);
    log(`  receiver: ${receiver.url}`);
    const projectDir = createPackedProject(EXAMPLE, { parentDir: DEMO_DIR });
    log(`  project:  examples/webhooks, with the npm pack tarball installed (${path.relative(REPO_ROOT, projectDir)})`);
    log(`  pulumi:   ${cliDir}/pulumi (state: a file backend under .demo/pulumi)`);
    log();

    const stack = await PulumiStack.create({ projectDir, cliDir, stateDir: path.join(DEMO_DIR, "pulumi") });
    await stack.setConfig("messaging:apiKey", emulator.apiKey, { secret: true });
    await stack.setConfig("messaging:baseUrl", emulator.url);
    await stack.setConfig("receiverBaseUrl", receiver.url);
    printOperation("pulumi preview", await stack.preview());
    const up = await stack.up();
    printOperation("pulumi up", up);
    const calls = emulator.requestCount();
    printOperation("pulumi up --expect-no-changes   (the program is unchanged)", await stack.up({ expectNoChanges: true }));
    log(`service calls during the second up: ${emulator.requestCount() - calls}`);
    log();
    const outputs = up.outputs ?? {};
    log("outputs:");
    for (const [name, { value, secret }] of Object.entries(outputs))
      log(`  ${name.padEnd(24)} ${secret ? mask(String(value)) : String(value)}`);
    log();

    // Stack outputs feed the receiver: it verifies signatures with the endpoint secrets.
    for (const [name, key] of [
      ["payments", "paymentsSigningSecret"],
      ["identity", "identitySigningSecret"],
    ] as const) {
      receiver.accept(name, String(outputs[key]?.value));
    }
    await emitEvent(emulator, "payment.succeeded");
    await emitEvent(emulator, "identity.verification.created");
    log("events from the emulator, checked by the receiver with the secrets from the stack outputs:");
    for (const line of receiver.received) log(`  ${line}`);
    if (receiver.received.length !== 2) throw new Error(`expected 2 verified deliveries, got ${receiver.received.length}`);
    log();
    printOperation("pulumi destroy", await stack.destroy());
    log(
      `endpoints in the emulator after destroy (retained): ${emulator
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
