/** Webhook deliveries like a real service: retries on a schedule, every attempt recorded, redelivery. */
import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startEmulator, type Delivery, type Emulator } from "../../emulator";
import { RESPONSE_BODY_MAX_BYTES } from "../../emulator/delivery/deliveries";
import { DeliveryQueue } from "../../emulator/delivery/delivery-queue";
import { buildEvent, eventData } from "../../emulator/delivery";
import { EmulatorStore } from "../../emulator/storage/store";
import { call, endpointForm, recordedEndpoint, startReceiver } from "../support/emulator";

const FAST = [0.05, 0.1];
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setUp(statuses: ((index: number) => number | "hang") | number, options: Parameters<typeof startEmulator>[0] = {}) {
  const emulator = await startEmulator({ deliveryRetrySchedule: FAST, ...options });
  closers.push(() => emulator.close());
  const receiver = await startReceiver(statuses);
  closers.push(() => receiver.close());
  const created = await call(emulator, "/v1/webhooks/endpoints", {
    form: endpointForm({ url: `${receiver.url}/hook`, "events[]": ["payment.succeeded"] }),
  });
  expect(created.status).toBe(200);
  return { emulator, receiver, endpoint: created.json as { id: string; secret: string } };
}

const sequence =
  (...statuses: Array<number | "hang">) =>
  (i: number) =>
    statuses[Math.min(i, statuses.length - 1)];

function signatureOk(header: string, body: string, secret: string): { ok: boolean; t: number } {
  const match = /^t=(\d+),sha256=([0-9a-f]{64})$/.exec(header);
  if (!match) return { ok: false, t: NaN };
  const expected = createHmac("sha256", secret).update(`${match[1]}.${body}`).digest("hex");
  return { ok: expected === match[2], t: Number(match[1]) };
}

async function emit(emulator: Emulator, data?: unknown) {
  const result = await call(emulator, "/_emulator/events", { json: { type: "payment.succeeded", ...(data ? { data } : {}) } });
  expect(result.status).toBe(200);
  return result;
}

describe("delivery retries", () => {
  it("503, 503, 200: the receiver gets the event three times with one event id, each signed afresh, and it is delivered", async () => {
    const { emulator, receiver, endpoint } = await setUp(sequence(503, 503, 200));
    const first = await emit(emulator, { id: "pay_1" });
    expect(first.json).toEqual([
      expect.objectContaining({ attempt: 1, status: 503, ok: false, outcome: "retry_scheduled", nextAttemptAt: expect.any(String) }),
    ]);
    await emulator.deliveriesSettled();

    expect(receiver.received).toHaveLength(3);
    const ids = receiver.received.map((r) => JSON.parse(r.body).id);
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toBe(first.headers["x-emulator-event-id"]);
    // Same bytes every time; only the signature's timestamp is new.
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);

    const attempts: Delivery[] = (await call(emulator, "/_emulator/deliveries")).json;
    expect(attempts.map((a) => [a.attempt, a.trigger, a.status, a.outcome])).toEqual([
      [1, "initial", 503, "retry_scheduled"],
      [2, "scheduled", 503, "retry_scheduled"],
      [3, "scheduled", 200, "delivered"],
    ]);
    expect(new Set(attempts.map((a) => a.id)).size).toBe(1);
    receiver.received.forEach((r, i) => {
      const signature = signatureOk(String(r.headers["x-service-signature"]), r.body, endpoint.secret);
      expect(signature.ok).toBe(true);
      // Each attempt is signed at its own time.
      expect(signature.t).toBe(Math.floor(Date.parse(attempts[i].attemptedAt) / 1000));
    });
    for (const attempt of attempts) expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
  });

  it.each([408, 429, 500, 502])("retries a %i answer", async (status) => {
    const { emulator, receiver } = await setUp(sequence(status, 204));
    await emit(emulator);
    await emulator.deliveriesSettled();
    expect(receiver.received).toHaveLength(2);
    expect(emulator.deliveries().map((a) => a.outcome)).toEqual(["retry_scheduled", "delivered"]);
  });

  it.each([400, 401, 404, 410, 301])("does not retry a %i answer: it is final", async (status) => {
    const { emulator, receiver } = await setUp(status);
    const result = await emit(emulator);
    expect(result.json[0]).toMatchObject({ status, ok: false, outcome: "failed" });
    expect(result.json[0].nextAttemptAt).toBeUndefined();
    await emulator.deliveriesSettled();
    expect(receiver.received).toHaveLength(1);
  });

  it("uses up the schedule and then records the delivery as failed", async () => {
    const { emulator, receiver } = await setUp(500);
    await emit(emulator);
    await emulator.deliveriesSettled();
    expect(receiver.received).toHaveLength(3); // first attempt + two retries
    expect(emulator.deliveries().map((a) => a.outcome)).toEqual(["retry_scheduled", "retry_scheduled", "failed"]);
  });

  it("with an empty schedule (--delivery-retry-schedule 0) makes one attempt only", async () => {
    const { emulator, receiver } = await setUp(503, { deliveryRetrySchedule: [] });
    const result = await emit(emulator);
    expect(result.json[0]).toMatchObject({ status: 503, outcome: "failed" });
    await emulator.deliveriesSettled();
    expect(receiver.received).toHaveLength(1);
  });

  it("retries a receiver that does not answer in time, recording the timeout", async () => {
    const { emulator, receiver } = await setUp(sequence("hang", 200), { deliveryTimeoutMs: 200 });
    const result = await emit(emulator);
    expect(result.json[0]).toMatchObject({ status: null, ok: false, outcome: "retry_scheduled", error: "timed out after 200 ms" });
    await emulator.deliveriesSettled();
    expect(receiver.received).toHaveLength(2);
    expect(emulator.deliveries()[1]).toMatchObject({ attempt: 2, status: 200, outcome: "delivered" });
  });

  it("retries a refused connection", async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const emulator = await startEmulator({ deliveryRetrySchedule: [0.05] });
    closers.push(() => emulator.close());
    await call(emulator, "/v1/webhooks/endpoints", {
      form: endpointForm({ url: `http://127.0.0.1:${port}/`, "events[]": ["payment.succeeded"] }),
    });
    const result = await emit(emulator);
    expect(result.json[0]).toMatchObject({ status: null, outcome: "retry_scheduled", error: expect.stringContaining("ECONNREFUSED") });
    await emulator.deliveriesSettled();
    expect(emulator.deliveries().map((a) => a.outcome)).toEqual(["retry_scheduled", "failed"]);
  });

  it("close() cancels scheduled retries", async () => {
    const { emulator, receiver } = await setUp(503, { deliveryRetrySchedule: [30] });
    await emit(emulator);
    await emulator.close();
    await emulator.deliveriesSettled(); // resolves: nothing is left scheduled
    expect(receiver.received).toHaveLength(1);
  });

  it("lists one event's attempts with ?event=", async () => {
    const { emulator } = await setUp(200);
    const a = await emit(emulator);
    await emit(emulator);
    const listed = await call(emulator, `/_emulator/deliveries?event=${a.headers["x-emulator-event-id"]}`);
    expect(listed.json).toHaveLength(1);
    expect(listed.json[0].eventId).toBe(a.headers["x-emulator-event-id"]);
    expect((await call(emulator, "/_emulator/deliveries?evnt=x")).status).toBe(400);
  });

  it("lists only the attempts recorded after an earlier listing's count with ?after= (how messaging listen follows)", async () => {
    const { emulator } = await setUp(200);
    await emit(emulator);
    await emit(emulator);
    const first = await call(emulator, "/_emulator/deliveries");
    expect(first.headers["x-emulator-attempts-recorded"]).toBe("2");
    const third = await emit(emulator);

    const since = await call(emulator, "/_emulator/deliveries?after=2");
    expect(since.headers["x-emulator-attempts-recorded"]).toBe("3");
    expect(since.json.map((a: Delivery) => a.eventId)).toEqual([third.headers["x-emulator-event-id"]]);
    expect((await call(emulator, "/_emulator/deliveries?after=3")).json).toEqual([]);
    // A count from another emulator (above this one's): everything kept.
    expect((await call(emulator, "/_emulator/deliveries?after=99")).json).toHaveLength(3);
    for (const bad of ["-1", "1.5", "x"]) {
      const refused = await call(emulator, `/_emulator/deliveries?after=${bad}`);
      expect(refused.status).toBe(400);
      expect(refused.text).toContain("after");
    }
  });
});

describe("what the receiver answered", () => {
  interface Answer {
    readonly status: number;
    readonly body: string | Buffer;
  }

  // A receiver that answers each request with the next of `answers` (the last one repeats).
  async function answering(...answers: Answer[]) {
    let count = 0;
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        const answer = answers[Math.min(count++, answers.length - 1)];
        res.writeHead(answer.status, { "content-type": "text/plain; charset=utf-8" });
        res.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    const emulator = await startEmulator({ deliveryRetrySchedule: [] });
    closers.push(() => emulator.close());
    const { port } = server.address() as AddressInfo;
    await call(emulator, "/v1/webhooks/endpoints", {
      form: endpointForm({ url: `http://127.0.0.1:${port}/hook`, "events[]": ["payment.succeeded"] }),
    });
    return emulator;
  }

  const storedBytes = async (emulator: Emulator) => Number((await call(emulator, "/_emulator/batches")).headers["x-emulator-stored-bytes"]);

  it("records the status and the body of each answer, listed by GET /_emulator/deliveries", async () => {
    const problem = JSON.stringify({ title: "no_matching_signature", status: 401, detail: "check the secret <here>" });
    const emulator = await answering({ status: 401, body: problem }, { status: 204, body: "" });
    const first = await emit(emulator);
    await call(emulator, `/_emulator/deliveries/${first.json[0].id}/retry`, { json: {} });
    const listed: Delivery[] = (await call(emulator, "/_emulator/deliveries")).json;
    expect(listed.map((a) => [a.status, a.responseBody, a.responseBytes])).toEqual([
      [401, problem, Buffer.byteLength(problem)],
      [204, "", 0],
    ]);
  });

  it(`keeps the first ${RESPONSE_BODY_MAX_BYTES} bytes of a long answer, whole characters only, and counts them in the byte budget`, async () => {
    // "é" is 2 bytes: an odd prefix puts a character across the limit.
    const long = `x${"é".repeat(RESPONSE_BODY_MAX_BYTES)}`;
    const emulator = await answering({ status: 500, body: "" }, { status: 500, body: long });
    const before = await storedBytes(emulator);
    await emit(emulator);
    const afterEmpty = await storedBytes(emulator);
    await emit(emulator);
    const afterLong = await storedBytes(emulator);

    const [empty, kept] = emulator.deliveries();
    expect(empty.responseBody).toBe("");
    expect(kept.responseBytes).toBe(Buffer.byteLength(long));
    expect(kept.responseBody).toBe(long.slice(0, RESPONSE_BODY_MAX_BYTES / 2)); // "x" and 2,047 "é": 4,095 bytes
    expect(kept.responseBody).not.toContain("\uFFFD");
    // The same event and attempt but for the body (and a few digits: durationMs, responseBytes):
    // the difference is the body's count, 2 bytes a character.
    const added = afterLong - afterEmpty - (afterEmpty - before);
    expect(added).toBeGreaterThanOrEqual(2 * kept.responseBody!.length);
    expect(added).toBeLessThan(2 * kept.responseBody!.length + 64);
  });

  it("records no body when no answer came", async () => {
    const { emulator } = await setUp(() => "hang", { deliveryTimeoutMs: 200, deliveryRetrySchedule: [] });
    await emit(emulator);
    const [attempt] = emulator.deliveries();
    expect(attempt).toMatchObject({ status: null, error: "timed out after 200 ms" });
    expect(attempt.responseBody).toBeUndefined();
    expect(attempt.responseBytes).toBeUndefined();
  });
});

describe("POST /_emulator/deliveries/{id}/retry", () => {
  it("redelivers the same event with a fresh signature and records attempt n+1", async () => {
    const { emulator, receiver, endpoint } = await setUp(sequence(400, 200));
    const first = await emit(emulator);
    expect(first.json[0].outcome).toBe("failed");
    const id = first.json[0].id;

    const retried = await call(emulator, `/_emulator/deliveries/${id}/retry`, { json: {} });
    expect(retried.status).toBe(200);
    expect(retried.json).toMatchObject({ id, attempt: 2, trigger: "manual", status: 200, ok: true, outcome: "delivered" });
    expect(receiver.received).toHaveLength(2);
    expect(JSON.parse(receiver.received[1].body).id).toBe(JSON.parse(receiver.received[0].body).id);
    expect(signatureOk(String(receiver.received[1].headers["x-service-signature"]), receiver.received[1].body, endpoint.secret).ok).toBe(
      true,
    );
    expect(emulator.deliveries().map((a) => a.attempt)).toEqual([1, 2]);
  });

  it("a successful redelivery cancels the scheduled retry", async () => {
    const { emulator, receiver } = await setUp(sequence(503, 200), { deliveryRetrySchedule: [30] });
    const first = await emit(emulator);
    await call(emulator, `/_emulator/deliveries/${first.json[0].id}/retry`, { json: {} });
    await emulator.deliveriesSettled(); // would wait 30 s if the retry were still scheduled
    expect(receiver.received).toHaveLength(2);
  });

  it("answers 404 for an unknown delivery", async () => {
    const { emulator } = await setUp(200);
    const result = await call(emulator, "/_emulator/deliveries/dlv_nope/retry", { json: {} });
    expect(result.status).toBe(404);
    expect(result.json.title).toBe("not_found");
  });
});

describe("DeliveryQueue bounds", () => {
  it("forgets the oldest pending delivery beyond maxTracked, dropping its scheduled retry", async () => {
    const receiver = await startReceiver(503);
    closers.push(() => receiver.close());
    const closing = new AbortController();
    closers.push(async () => closing.abort());
    const store = new EmulatorStore();
    const queue = new DeliveryQueue(store, { retrySchedule: [30], closing: closing.signal, maxTracked: 2 });
    const endpoint = recordedEndpoint({ id: "we_1", secret: "whsec_x", etag: '"e"', events: ["t"], url: `${receiver.url}/` });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const [attempt] = await queue.emit(buildEvent("t", eventData(undefined)), [endpoint]);
      expect(attempt.outcome).toBe("retry_scheduled");
      ids.push(attempt.id);
    }
    await expect(queue.redeliver(ids[0])).rejects.toMatchObject({ reply: { status: 404 } });
    const again = await queue.redeliver(ids[2]);
    expect(again).toMatchObject({ attempt: 2, trigger: "manual", status: 503 });
    closing.abort();
    await queue.settled();
  });
});
