import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { CloudEventEnvelope, MessagingEvent } from "../../schemas";
import { startEmulator, type Emulator, type EmulatedWebhookEndpoint } from "../../emulator";
import { call, endpointForm, startReceiver } from "../support/emulator";

let emulator: Emulator;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeEach(async () => {
  emulator = await startEmulator({ deliveryRetrySchedule: [] });
  receiver = await startReceiver();
});
afterEach(async () => {
  await emulator.close();
  await receiver.close();
});

async function createEndpoint(path: string, events: string[], format = "basic"): Promise<EmulatedWebhookEndpoint> {
  const result = await call(emulator, "/v1/webhooks/endpoints", {
    form: endpointForm({ url: `${receiver.url}${path}`, "events[]": events, format }),
  });
  expect(result.status).toBe(200);
  return result.json;
}

/** Verifies `t=<s>,sha256=<hex>` independently of the emulator's and the package's code. */
function verify(header: string, body: string, secret: string): boolean {
  const match = /^t=(\d+),sha256=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const expected = createHmac("sha256", secret).update(`${match[1]}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2], "hex"));
}

describe("POST /_emulator/events", () => {
  it("delivers a basic event to the subscribed endpoint, signed with its secret", async () => {
    const endpoint = await createEndpoint("/payments", ["payment.succeeded"]);
    const result = await call(emulator, "/_emulator/events", {
      json: { type: "payment.succeeded", data: { id: "pay_1", amount: 1200 } },
    });
    expect(result.status).toBe(200);

    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got.path).toBe("/payments");
    expect(got.headers["content-type"]).toMatch(/^application\/json/);
    const event = MessagingEvent.parse(JSON.parse(got.body));
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: "payment.succeeded",
      created: expect.any(String),
      data: { object: { id: "pay_1", amount: 1200 }, previous: null },
      request: { id: null, idempotency_key: null },
    });
    const signature = String(got.headers["x-service-signature"]);
    expect(verify(signature, got.body, endpoint.secret)).toBe(true);
    expect(verify(signature, got.body, `${endpoint.secret}x`)).toBe(false);
    const seconds = Number(/^t=(\d+)/.exec(signature)?.[1]);
    expect(Math.abs(seconds - Date.now() / 1000)).toBeLessThan(300);

    expect(result.json).toEqual([
      {
        id: expect.stringMatching(/^dlv_/),
        attempt: 1,
        trigger: "initial",
        outcome: "delivered",
        durationMs: expect.any(Number),
        endpointId: endpoint.id,
        eventId: event.id,
        type: "payment.succeeded",
        url: `${receiver.url}/payments`,
        format: "basic",
        status: 200,
        ok: true,
        responseBody: "ok", // what the test receiver answers
        responseBytes: 2,
        attemptedAt: expect.any(String),
      },
    ]);
    expect(emulator.deliveries()).toEqual(result.json);
    expect((await call(emulator, "/_emulator/deliveries")).json).toEqual(result.json);
  });

  it("sends nothing to an endpoint not subscribed to the type", async () => {
    await createEndpoint("/identity", ["identity.verification.created"]);
    const payments = await createEndpoint("/payments", ["payment.succeeded"]);
    const result = await call(emulator, "/_emulator/events", { json: { type: "payment.succeeded" } });
    expect(result.json.map((d: { endpointId: string }) => d.endpointId)).toEqual([payments.id]);
    expect(receiver.received.map((r) => r.path)).toEqual(["/payments"]);

    const none = await call(emulator, "/_emulator/events", { json: { type: "unknown.type" } });
    expect(none.json).toEqual([]);
    expect(receiver.received).toHaveLength(1);
  });

  it("takes data with an object member as the event's data, previous defaulting to null", async () => {
    await createEndpoint("/p", ["payment.succeeded"]);
    await call(emulator, "/_emulator/events", { json: { type: "payment.succeeded", data: { object: { id: "pay_1" } } } });
    await call(emulator, "/_emulator/events", {
      json: { type: "payment.succeeded", data: { object: { id: "pay_2", amount: 5 }, previous: { amount: 4 } } },
    });
    expect(receiver.received.map((r) => JSON.parse(r.body).data)).toEqual([
      { object: { id: "pay_1" }, previous: null },
      { object: { id: "pay_2", amount: 5 }, previous: { amount: 4 } },
    ]);
  });

  it("rejects data whose object member is not an object, naming it", async () => {
    const result = await call(emulator, "/_emulator/events", { json: { type: "payment.succeeded", data: { object: 5 } } });
    expect(result.status).toBe(400);
    expect(Object.keys(result.json.errors)).toEqual(["data.object"]);
  });

  it("defaults data.object to {}", async () => {
    await createEndpoint("/p", ["payment.succeeded"]);
    await call(emulator, "/_emulator/events", { json: { type: "payment.succeeded" } });
    expect(JSON.parse(receiver.received[0].body).data).toEqual({ object: {}, previous: null });
  });

  it("delivers CloudEvents 1.0 structured JSON to a cloudEvents endpoint", async () => {
    const endpoint = await createEndpoint("/ce", ["identity.verification.created"], "cloudEvents");
    const result = await call(emulator, "/_emulator/events", {
      json: { type: "identity.verification.created", data: { id: "iv_1" } },
    });
    expect(result.json[0]).toMatchObject({ ok: true, format: "cloudEvents" });

    const [got] = receiver.received;
    expect(got.headers["content-type"]).toMatch(/^application\/cloudevents\+json/);
    const envelope = CloudEventEnvelope.parse(JSON.parse(got.body));
    expect(envelope).toMatchObject({
      specversion: "1.0",
      type: "identity.verification.created",
      source: "/emulator",
      datacontenttype: "application/json",
    });
    expect(envelope.id).toBe(envelope.data.id);
    expect(envelope.time).toBe(envelope.data.created);
    expect(envelope.data).toMatchObject({ type: "identity.verification.created", data: { object: { id: "iv_1" } } });
    expect(verify(String(got.headers["x-service-signature"]), got.body, endpoint.secret)).toBe(true);
  });

  it("delivers one event to every subscriber, each signed with its own secret", async () => {
    const a = await createEndpoint("/a", ["payment.succeeded"]);
    const b = await createEndpoint("/b", ["payment.succeeded", "identity.verification.created"]);
    const result = await call(emulator, "/_emulator/events", { json: { type: "payment.succeeded" } });
    expect(result.json).toHaveLength(2);
    const byPath = Object.fromEntries(receiver.received.map((r) => [r.path, r]));
    expect(verify(String(byPath["/a"].headers["x-service-signature"]), byPath["/a"].body, a.secret)).toBe(true);
    expect(verify(String(byPath["/b"].headers["x-service-signature"]), byPath["/b"].body, b.secret)).toBe(true);
    expect(JSON.parse(byPath["/a"].body).id).toBe(JSON.parse(byPath["/b"].body).id);
  });

  it("records a receiver's error status as a failed delivery", async () => {
    const failing = await startReceiver(500);
    try {
      await call(emulator, "/v1/webhooks/endpoints", {
        form: endpointForm({ url: `${failing.url}/x`, "events[]": ["payment.succeeded"] }),
      });
      const result = await call(emulator, "/_emulator/events", { json: { type: "payment.succeeded" } });
      expect(result.json[0]).toMatchObject({ status: 500, ok: false, attempt: 1 });
      expect(failing.received).toHaveLength(1);
    } finally {
      await failing.close();
    }
  });

  it("records an unreachable receiver without crashing", async () => {
    // A port that was free a moment ago: connecting to it is refused.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    await call(emulator, "/v1/webhooks/endpoints", {
      form: endpointForm({ url: `http://127.0.0.1:${port}/gone`, "events[]": ["payment.succeeded"] }),
    });
    const result = await call(emulator, "/_emulator/events", { json: { type: "payment.succeeded" } });
    expect(result.status).toBe(200);
    expect(result.json[0]).toMatchObject({ status: null, ok: false, error: expect.stringContaining("ECONNREFUSED") });
    expect((await call(emulator, "/_emulator/endpoints")).status).toBe(200);
  });

  it("rejects a body without a type, naming it", async () => {
    const result = await call(emulator, "/_emulator/events", { json: { data: {} } });
    expect(result.status).toBe(400);
    expect(Object.keys(result.json.errors)).toEqual(["type"]);
  });

  it("requires authentication", async () => {
    const result = await call(emulator, "/_emulator/events", { auth: null, json: { type: "payment.succeeded" } });
    expect(result.status).toBe(401);
  });
});
