/**
 * `npm run demo`: the product's main job on the embedded default, through the route a CI tool
 * or a platform team takes: Pulumi's Automation API.
 *
 * Starts the emulator, installs the `npm pack` tarball into a copy of examples/automation
 * under .demo/, and runs that example's `deploy()` (an inline program: the endpoints of
 * examples/webhooks) with the real `pulumi` CLI (on PATH, or built by `npm run pulumi:path`) on
 * a file backend under .demo/: preview, up, up again (no changes, no service calls), destroy
 * (the endpoints are retained, and said so). Prints what `pulumi` prints, the endpoint ids with
 * the secrets masked, and feeds the secrets from the stack outputs to a local receiver that
 * verifies signed events.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { EmulatorClient, startEmulator, type Emulator } from "../../emulator";
import { createWebhookHandler } from "../../receiver";
import { REPO_ROOT } from "../repo-root";

const DEMO_DIR = path.join(REPO_ROOT, ".demo");
const EXAMPLE = path.join(REPO_ROOT, "examples", "automation");

/** What examples/automation/deploy.js exports. */
interface Deployment {
  deploy(
    operation: "up" | "preview" | "destroy",
    options: { receiverBaseUrl?: string; expectNoChanges?: boolean; onOutput?: (text: string) => void },
  ): Promise<{ changes: Record<string, number>; outputs: Record<string, { value: unknown; secret: boolean }> }>;
}

/** The directory holding `pulumi`: `scripts/pulumi-cli/pulumi-path.sh` finds it on PATH or builds the pinned release. */
function pulumiDir(): string {
  const result = spawnSync("bash", [path.join(REPO_ROOT, "scripts", "pulumi-cli", "pulumi-path.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const dir = result.stdout?.trim().split("\n").pop();
  if (result.status !== 0 || !dir) {
    throw new Error(
      `no Pulumi CLI (scripts/pulumi-cli/pulumi-path.sh exited ${result.status}): install Pulumi 3.181 or later on PATH, or Go 1.26 to build it`,
    );
  }
  return dir;
}

/**
 * A copy of examples/automation with the package installed as users install it (the tarball
 * unpacked into node_modules/pulumi-messaging), its other dependencies linked from this
 * repository's node_modules (no registry access).
 */
function packedProject(): string {
  const dir = path.join(DEMO_DIR, "project");
  fs.mkdirSync(path.join(dir, "node_modules", "pulumi-messaging"), { recursive: true });
  for (const file of ["Pulumi.yaml", "package.json", "deploy.js"]) fs.copyFileSync(path.join(EXAMPLE, file), path.join(dir, file));
  const [{ filename }] = JSON.parse(
    execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", DEMO_DIR], { cwd: REPO_ROOT, encoding: "utf8" }),
  ) as Array<{ filename: string }>;
  execFileSync("tar", [
    "-xzf",
    path.join(DEMO_DIR, filename),
    "-C",
    path.join(dir, "node_modules", "pulumi-messaging"),
    "--strip-components=1",
  ]);
  for (const entry of fs.readdirSync(path.join(REPO_ROOT, "node_modules"))) {
    if (entry === "pulumi-messaging" || entry.startsWith(".")) continue;
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules", entry), path.join(dir, "node_modules", entry), "junction");
  }
  return dir;
}

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

/** Runs one operation of the example, printing what `pulumi` printed, indented. */
async function run(
  deployment: Deployment,
  title: string,
  operation: "up" | "preview" | "destroy",
  options: { receiverBaseUrl?: string; expectNoChanges?: boolean } = {},
) {
  log(`$ ${title}`);
  let text = "";
  try {
    return await deployment.deploy(operation, { ...options, onOutput: (chunk) => (text += chunk) });
  } finally {
    for (const line of text.trimEnd().split("\n")) log(`  ${line}`);
    log();
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

async function main(): Promise<void> {
  fs.rmSync(DEMO_DIR, { recursive: true, force: true });
  fs.mkdirSync(path.join(DEMO_DIR, "pulumi", "backend"), { recursive: true });
  const cliDir = pulumiDir();
  const emulator = await startEmulator({ apiKey: `sk_test_demo_${randomBytes(6).toString("hex")}` });
  const receiver = await startReceiver();
  try {
    log("pulumi-messaging demo");
    log(`  emulator: ${emulator.url} (embedded)`);
    log(`  receiver: ${receiver.url}`);
    const projectDir = packedProject();
    log(`  project:  examples/automation, with the npm pack tarball installed (${path.relative(REPO_ROOT, projectDir)})`);
    log(`  pulumi:   ${cliDir}/pulumi (state: a file backend under .demo/pulumi)`);
    log();

    // What the Automation API hands to `pulumi`, and `pulumi` to the provider: a file backend
    // of the demo's own, offline, and the emulator's settings (never stored in the stack).
    Object.assign(process.env, {
      PATH: `${cliDir}${path.delimiter}${process.env.PATH ?? ""}`,
      PULUMI_HOME: path.join(DEMO_DIR, "pulumi", "home"),
      PULUMI_BACKEND_URL: `file://${path.join(DEMO_DIR, "pulumi", "backend")}`,
      PULUMI_CONFIG_PASSPHRASE: "pulumi-messaging-demo",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_DISABLE_REGISTRY_RESOLVE: "true",
      MESSAGING_BASE_URL: emulator.url,
      MESSAGING_API_KEY: emulator.apiKey,
    });
    const deployment = require(path.join(projectDir, "deploy.js")) as Deployment;
    await run(deployment, "node deploy.js preview", "preview", { receiverBaseUrl: receiver.url });
    const up = await run(deployment, "node deploy.js up", "up");
    const calls = emulator.requestCount();
    await run(deployment, "node deploy.js up   (the program is unchanged: expectNoChanges)", "up", { expectNoChanges: true });
    log(`service calls during the second up: ${emulator.requestCount() - calls}`);
    log();
    log("outputs:");
    for (const [name, { value, secret }] of Object.entries(up.outputs))
      log(`  ${name.padEnd(24)} ${secret ? mask(String(value)) : String(value)}`);
    log();

    // Stack outputs feed the receiver: it verifies signatures with the endpoint secrets.
    for (const [name, key] of [
      ["payments", "paymentsSigningSecret"],
      ["identity", "identitySigningSecret"],
    ] as const) {
      receiver.accept(name, String(up.outputs[key]?.value));
    }
    await emitEvent(emulator, "payment.succeeded");
    await emitEvent(emulator, "identity.verification.created");
    log("events from the emulator, checked by the receiver with the secrets from the stack outputs:");
    for (const line of receiver.received) log(`  ${line}`);
    if (receiver.received.length !== 2) throw new Error(`expected 2 verified deliveries, got ${receiver.received.length}`);
    log();
    await run(deployment, "node deploy.js destroy", "destroy");
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
