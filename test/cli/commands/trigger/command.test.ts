/** messaging trigger, run in-process against a real emulator and a real receiver on 127.0.0.1. */
import { runTriggerCommand } from "../../../../cli/commands/trigger/command";
import { startEmulator, type Emulator } from "../../../../emulator";
import { call, endpointForm, startReceiver } from "../../../support/emulator";

let emulator: Emulator;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  emulator = await startEmulator({ apiKey: "sk_test_trigger", deliveryRetrySchedule: [0.05, 0.1] });
  // Payments: 503, 503, then 200. Identity: always 400 (final).
  let payments = 0;
  receiver = await startReceiver((index) => {
    const r = receiver.received[index];
    if (r.path === "/identity") return 400;
    return ++payments <= 2 ? 503 : 200;
  });
  for (const [path, type] of [
    ["/payments", "payment.succeeded"],
    ["/identity", "identity.verification.created"],
  ]) {
    const created = await call(emulator, "/v1/webhooks/endpoints", {
      form: endpointForm({ url: `${receiver.url}${path}`, "events[]": [type] }),
    });
    expect(created.status).toBe(200);
  }
});
afterAll(async () => {
  await emulator.close();
  await receiver.close();
});

async function trigger(argv: string[], env: Record<string, string | undefined> = {}) {
  let stdout = "";
  let stderr = "";
  const code = await runTriggerCommand(
    argv,
    { MESSAGING_BASE_URL: emulator.url, MESSAGING_API_KEY: "sk_test_trigger", ...env },
    {
      stdout: (text) => void (stdout += text),
      stderr: (text) => void (stderr += text),
    },
  );
  return { code, stdout, stderr };
}

describe("messaging trigger", () => {
  it("with --wait, emits the event, follows the retries and prints every attempt until delivered", async () => {
    const before = receiver.received.length;
    const { code, stdout } = await trigger([
      "payment.succeeded",
      "--wait",
      "--data",
      '{"id":"pay_1","amount":1200}',
      "--previous",
      '{"amount":1000}',
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^event evt_\w+ \(payment\.succeeded\): 1 endpoint\(s\) subscribed$/m);
    expect(stdout).toMatch(/attempt 1: HTTP 503 .*→ retry at /);
    expect(stdout).toMatch(/attempt 2: HTTP 503 .*→ retry at /);
    expect(stdout).toMatch(/attempt 3: HTTP 200 .*→ delivered/);
    expect(stdout).toMatch(/^1 delivered, 0 failed$/m);
    const got = receiver.received.slice(before).map((r) => JSON.parse(r.body));
    expect(got).toHaveLength(3);
    expect(got[2].data).toEqual({ object: { id: "pay_1", amount: 1200 }, previous: { amount: 1000 } });
    expect(new Set(got.map((event) => event.id)).size).toBe(1);
  });

  it("exits 1 when a delivery fails for good", async () => {
    const { code, stdout } = await trigger(["identity.verification.created"]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/attempt 1: HTTP 400 .*→ failed, no more retries/);
    // What the receiver said, which its author needs to fix it.
    expect(stdout).toMatch(/attempt 1: HTTP 400 \(ok\) in /);
    expect(stdout).toMatch(/^0 delivered, 1 failed$/m);
  });

  it("sends a realistic sample object for a named type without --data", async () => {
    const before = receiver.received.length;
    await trigger(["identity.verification.created"]);
    const event = JSON.parse(receiver.received[before].body);
    expect(event.type).toBe("identity.verification.created");
    expect(event.data.object).toMatchObject({ id: expect.stringMatching(/^iv_/), object: "identity.verification", phone: "+254712345678" });
  });

  it("refuses an unknown type with a did-you-mean; --allow-unknown-type emits it", async () => {
    const typo = await trigger(["payment.succeded"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("unknown event type 'payment.succeded'; did you mean payment.succeeded?");
    expect(typo.stderr).toContain("--allow-unknown-type");
    expect(emulator.deliveries().some((attempt) => attempt.type === "payment.succeded")).toBe(false);

    const { code, stdout } = await trigger(["nobody.listens", "--allow-unknown-type"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/0 endpoint\(s\) subscribed/);
  });

  it("accepts a type an endpoint subscribes to; by default returns after the first attempt, showing the retry schedule", async () => {
    const failing = await startReceiver(503);
    try {
      await call(emulator, "/v1/webhooks/endpoints", {
        form: endpointForm({ url: `${failing.url}/orders`, "events[]": ["order.shipped"] }),
      });
      const { code, stdout } = await trigger(["order.shipped", "--data", '{"id":"ord_1"}']);
      expect(code).toBe(1); // not delivered (yet)
      expect(stdout).toMatch(/order\.shipped\): 1 endpoint\(s\) subscribed/);
      expect(stdout).toMatch(/attempt 1: HTTP 503 .*→ retry at /);
      expect(stdout).not.toMatch(/attempt 2/);
      expect(stdout).toContain("retries follow after 0.05, 0.1 s; follow them with --wait");
      expect(stdout).toMatch(/^0 delivered, 0 failed, 1 to be retried$/m);
      await emulator.deliveriesSettled();
    } finally {
      await failing.close();
    }
  });

  it.each([
    [[], "exactly one event type"],
    [["a", "b"], "exactly one event type"],
    [["payment.succeeded", "--data", "{"], "--data is not JSON"],
    [["payment.succeeded", "--data", "[1]"], "--data must be a JSON object"],
    [["payment.succeeded", "--data", '{"__proto__":{"x":1}}'], '--data: ["__proto__"]'],
    [["payment.succeeded", "--data", '{"n":1e400}'], "--data: n: expected a finite number"],
    [["payment.succeeded", "--previous", "5"], "--previous must be a JSON object or null"],
    [["payment.succeeded", "--bogus"], "unknown option --bogus"],
    [["payment.succeeded", "--dta", "{}"], "unknown option --dta (did you mean --data?)"],
    [["payment.succeeded", "--wait", "--no-wait"], "not both"],
  ])("exits 2 for %p", async (argv, message) => {
    const { code, stderr } = await trigger(argv as string[]);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain("usage: messaging trigger");
  });

  it("exits 2 without MESSAGING_BASE_URL, and 1 with a wrong key (the emulator's 401 explained)", async () => {
    const unset = await trigger(["payment.succeeded"], { MESSAGING_BASE_URL: undefined });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain("MESSAGING_BASE_URL is not set");
    const bad = await trigger(["payment.succeeded"], { MESSAGING_BASE_URL: "localhost:4010" });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("MESSAGING_BASE_URL is 'localhost:4010', which is not an http(s) URL");
    expect(bad.stderr).not.toContain("MESSAGING_API_KEY");
    const wrong = await trigger(["payment.succeeded"], { MESSAGING_API_KEY: "sk_test_wrong" });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("HTTP 401");
    expect(wrong.stderr).not.toContain("sk_test_wrong");
  });
});
