/**
 * messaging events resend <event id>, run in-process against a real emulator and a real
 * receiver on 127.0.0.1: after a receiver is fixed, an event is delivered again from the CLI.
 */
import { startEmulator, type Emulator } from "../../../../emulator";
import { call, endpointForm, startReceiver } from "../../../support/emulator";

let emulator: Emulator;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
// The receiver refuses (a bad secret, say) until it is "fixed".
let fixed = false;
let endpointIds: string[] = [];
beforeAll(async () => {
  emulator = await startEmulator({ apiKey: "sk_test_events", deliveryRetrySchedule: [] });
  receiver = await startReceiver(() => (fixed ? 204 : 401));
  endpointIds = [];
  for (const path of ["/a", "/b"]) {
    const created = await call(emulator, "/v1/webhooks/endpoints", {
      form: endpointForm({ url: `${receiver.url}${path}`, "events[]": ["payment.succeeded"] }),
    });
    expect(created.status).toBe(200);
    endpointIds.push(created.json.id);
  }
});
afterAll(async () => {
  await emulator?.close();
  await receiver?.close();
});

async function messaging(argv: string[]) {
  const { runEventsCommand } = await import("../../../../cli/commands/events/command");
  let stdout = "";
  let stderr = "";
  const code = await runEventsCommand(
    argv,
    { MESSAGING_BASE_URL: emulator.url, MESSAGING_API_KEY: "sk_test_events" },
    { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) },
  );
  return { code, stdout, stderr };
}

async function emitFailingEvent(): Promise<string> {
  fixed = false;
  const emitted = await call(emulator, "/_emulator/events", { json: { type: "payment.succeeded" } });
  expect(emitted.status).toBe(200);
  await emulator.deliveriesSettled();
  return String(emitted.headers["x-emulator-event-id"]);
}

describe("messaging events resend", () => {
  it("delivers the event again to every endpoint it went to, and says how each attempt went", async () => {
    const eventId = await emitFailingEvent();
    fixed = true;
    const before = receiver.received.length;
    const run = await messaging(["resend", eventId]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^event ${eventId} \\(payment\\.succeeded\\): resending to 2 endpoint\\(s\\)$`, "m"));
    expect(run.stdout).toMatch(/\/a {2}attempt 2: HTTP 204 .*→ delivered/);
    expect(run.stdout).toMatch(/\/b {2}attempt 2: HTTP 204 .*→ delivered/);
    expect(run.stdout).toMatch(/2 delivered, 0 failed/);
    const again = receiver.received.slice(before);
    expect(again.map((r) => r.path).sort()).toEqual(["/a", "/b"]);
    expect(new Set(again.map((r) => JSON.parse(r.body).id))).toEqual(new Set([eventId]));
    const manual = emulator.deliveries().filter((d) => d.eventId === eventId && d.trigger === "manual");
    expect(manual).toHaveLength(2);
  });

  it("--endpoint resends to that endpoint only", async () => {
    const eventId = await emitFailingEvent();
    fixed = true;
    const before = receiver.received.length;
    const run = await messaging(["resend", eventId, "--endpoint", endpointIds[1]]);
    expect(run.code).toBe(0);
    expect(receiver.received.slice(before).map((r) => r.path)).toEqual(["/b"]);
  });

  it("still failing: exit 1, with the status it got", async () => {
    const eventId = await emitFailingEvent();
    const run = await messaging(["resend", eventId]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/attempt 2: HTTP 401 .*→ failed/);
    expect(run.stdout).toMatch(/0 delivered, 2 failed/);
  });

  it("an unknown event id: exit 1 naming it and the closest event the emulator has", async () => {
    const eventId = await emitFailingEvent();
    const run = await messaging(["resend", `${eventId.slice(0, -1)}x`]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`no event ${eventId.slice(0, -1)}x in the emulator`);
    expect(run.stderr).toContain(`did you mean ${eventId}`);
  });

  it.each([[[]], [["resend"]], [["resend", "a", "b"]], [["replay", "evt_1"]], [["resend", "evt_1", "--bogus"]]])(
    "bad arguments %p: exit 2 with its usage",
    async (argv) => {
      const run = await messaging(argv);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("usage: messaging events resend <event id>");
    },
  );
});
