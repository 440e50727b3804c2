/**
 * examples/receiver: both endpoints of examples/webhooks, each with its own secret; signed
 * events are handled once, others refused; end to end with the emulator delivering.
 */
import { ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import * as readline from "node:readline";
import { startEmulator, type Emulator } from "../../emulator";
import { signPayload } from "../../receiver";
import { call, endpointForm, withEmulatorClient } from "../support/emulator";
import { freeLoopbackPort } from "../support/loopback-server";

const SERVER = path.resolve(__dirname, "..", "..", "examples", "receiver", "server.js");
const PAYMENTS_SECRET = "whsec_example_payments";
const IDENTITY_SECRET = "whsec_example_identity";

let receiver: ChildProcess;
let base: string;
const printed: string[] = [];

beforeAll(async () => {
  receiver = spawn(process.execPath, [SERVER], {
    env: { ...process.env, PORT: "0", PAYMENTS_SIGNING_SECRET: PAYMENTS_SECRET, IDENTITY_SIGNING_SECRET: IDENTITY_SECRET },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = readline.createInterface({ input: receiver.stdout! });
  lines.on("line", (line) => printed.push(line));
  base = await new Promise((resolve) => lines.once("line", (line) => resolve(/(http:\S+\/webhooks)/.exec(line)![1])));
});

afterAll(async () => {
  if (receiver.exitCode === null) {
    const exited = new Promise((resolve) => receiver.once("exit", resolve));
    receiver.kill();
    await exited;
  }
});

/** Waits (bounded by count, not time) until the child has printed a line containing `text`. */
async function printedLine(text: string): Promise<string | undefined> {
  for (let i = 0; i < 1000 && !printed.some((line) => line.includes(text)); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return printed.find((line) => line.includes(text));
}

const event = (id: string, type: string) =>
  JSON.stringify({ id, type, created: "2026-11-22T00:00:00Z", data: { object: { amount: 1200 } } });

test("a payment event signed with the payments secret is accepted and handled", async () => {
  const body = event("evt_pay_1", "payment.succeeded");
  const response = await fetch(`${base}/payments`, {
    method: "POST",
    body,
    headers: { "x-service-signature": signPayload(body, PAYMENTS_SECRET) },
  });
  expect(response.status).toBe(204);
  expect(await printedLine("evt_pay_1")).toContain("payment succeeded: event evt_pay_1");
});

test("an identity event (CloudEvents) signed with the identity secret is accepted and handled", async () => {
  const inner = JSON.parse(event("evt_id_1", "identity.verification.created"));
  const body = JSON.stringify({ specversion: "1.0", id: "evt_id_1", source: "/test", type: "identity.verification.created", data: inner });
  const response = await fetch(`${base}/identity`, {
    method: "POST",
    body,
    headers: { "x-service-signature": signPayload(body, IDENTITY_SECRET) },
  });
  expect(response.status).toBe(204);
  expect(await printedLine("evt_id_1")).toContain("identity verification created: event evt_id_1");
});

test("each path takes only its own endpoint's secret", async () => {
  const body = event("evt_x", "payment.succeeded");
  const swapped = await fetch(`${base}/payments`, {
    method: "POST",
    body,
    headers: { "x-service-signature": signPayload(body, IDENTITY_SECRET) },
  });
  expect(swapped.status).toBe(401);
  const attacker = await fetch(`${base}/identity`, {
    method: "POST",
    body,
    headers: { "x-service-signature": signPayload(body, "whsec_attacker") },
  });
  expect(attacker.status).toBe(401);
  expect((await fetch(`${base}/other`, { method: "POST", body })).status).toBe(404);
});

test("end to end: the emulator delivers to both paths; a redelivery is answered but not processed twice", async () => {
  // As with the stack: the endpoints (and their secrets) come first, the receiver starts with them.
  const port = await freeLoopbackPort();
  const emulator: Emulator = await startEmulator({ deliveryRetrySchedule: [] });
  let child: ChildProcess | undefined;
  try {
    const url = (p: string) => `http://127.0.0.1:${port}/webhooks/${p}`;
    const payments = await call(emulator, "/v1/webhooks/endpoints", {
      form: endpointForm({ url: url("payments"), "events[]": ["payment.succeeded"] }),
    });
    const identity = await call(emulator, "/v1/webhooks/endpoints", {
      form: endpointForm({ url: url("identity"), "events[]": ["identity.verification.created"], format: "cloudEvents" }),
    });
    child = spawn(process.execPath, [SERVER], {
      env: {
        ...process.env,
        PORT: String(port),
        PAYMENTS_SIGNING_SECRET: payments.json.secret,
        IDENTITY_SIGNING_SECRET: identity.json.secret,
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const lines: string[] = [];
    const reader = readline.createInterface({ input: child.stdout! });
    reader.on("line", (line) => lines.push(line));
    await new Promise((resolve) => reader.once("line", resolve));

    await withEmulatorClient(emulator, async (control) => {
      const paid = await control.emitEvent({ type: "payment.succeeded", data: { id: "pay_e2e" } });
      const verified = await control.emitEvent({ type: "identity.verification.created", data: { id: "iv_e2e" } });
      expect([paid.attempts[0].status, verified.attempts[0].status]).toEqual([204, 204]);
      const redelivered = await control.retryDelivery(paid.attempts[0].id);
      expect(redelivered).toMatchObject({ attempt: 2, status: 204, outcome: "delivered" });
    });

    const until = async (text: string) => {
      for (let i = 0; i < 1000 && !lines.some((line) => line.includes(text)); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    await until("iv_e2e");
    await until("pay_e2e");
    expect(lines.filter((line) => line.includes("pay_e2e"))).toHaveLength(1); // processed once
    expect(lines.some((line) => line.startsWith("identity verification created") && line.includes("iv_e2e"))).toBe(true);
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once("exit", resolve));
      child.kill();
      await exited;
    }
    await emulator.close();
  }
});

test("without the secrets the receiver refuses to start, naming each stack output", async () => {
  const child = spawn(process.execPath, [SERVER], {
    env: { ...process.env, PAYMENTS_SIGNING_SECRET: "", IDENTITY_SIGNING_SECRET: "" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise((resolve) => child.once("exit", resolve));
  expect(code).toBe(2);
  expect(stderr).toContain("pulumi stack output paymentsSigningSecret --show-secrets");
  expect(stderr).toContain("pulumi stack output identitySigningSecret --show-secrets");
});
