/** examples/receiver: accepts events signed with the secret it is given, refuses others. */
import { ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import * as readline from "node:readline";
import { signPayload } from "../../receiver";

const SERVER = path.resolve(__dirname, "..", "..", "examples", "receiver", "server.js");
const SECRET = "whsec_example_receiver_test";

let receiver: ChildProcess;
let url: string;
const printed: string[] = [];

beforeAll(async () => {
  receiver = spawn(process.execPath, [SERVER], {
    env: { ...process.env, PORT: "0", PAYMENTS_SIGNING_SECRET: SECRET },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = readline.createInterface({ input: receiver.stdout! });
  lines.on("line", (line) => printed.push(line));
  url = await new Promise((resolve) => lines.once("line", (line) => resolve(line.replace("receiver listening on ", ""))));
});

afterAll(async () => {
  if (receiver.exitCode === null) {
    const exited = new Promise((resolve) => receiver.once("exit", resolve));
    receiver.kill();
    await exited;
  }
});

const event = (type: string) => JSON.stringify({ id: `evt_${type}`, type, created: "2026-11-22T00:00:00Z", data: { object: { amount: 1200 } } });

test("a payment event signed with the endpoint secret is accepted and handled", async () => {
  const body = event("payment.succeeded");
  const response = await fetch(url, { method: "POST", body, headers: { "x-service-signature": signPayload(body, SECRET) } });
  expect(response.status).toBe(204);
  // The handler answers before the child's stdout reaches us: wait for the line (bounded).
  for (let i = 0; i < 500 && !printed.some((line) => line.includes("evt_payment.succeeded")); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(printed).toContainEqual(expect.stringContaining("payment succeeded: event evt_payment.succeeded"));
});

test("an event signed with another secret is refused", async () => {
  const body = event("payment.succeeded");
  const response = await fetch(url, { method: "POST", body, headers: { "x-service-signature": signPayload(body, "whsec_attacker") } });
  expect(response.status).toBe(401);
});

test("without a secret the receiver refuses to start, saying where to get it", async () => {
  const child = spawn(process.execPath, [SERVER], { env: { ...process.env, PAYMENTS_SIGNING_SECRET: "" }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise((resolve) => child.once("exit", resolve));
  expect(code).toBe(2);
  expect(stderr).toContain("pulumi stack output paymentsSigningSecret --show-secrets");
});
