/**
 * The emulator's memory is bounded by bytes, not only by counts: flooded with large batches,
 * large endpoint fields and large events under a small --max-stored-bytes, it stays within
 * the budget, keeps answering, and loses only what the documented eviction says (oldest
 * batches, then oldest events, then oldest attempts; endpoints never). A body that does not
 * fit in memory now gets 503 with Retry-After. (Oversized bodies, 413 before they are read,
 * are rows of the hostile-input table, test/support/hostile-cases.ts.)
 */
import net from "node:net";
import { startEmulator, type Emulator } from "../../emulator";
import { MemoryGuard } from "../../emulator/http";
import { basicAuth, call, endpointForm, VERSION } from "../support/emulator";

const BUDGET = 256 * 1024;

/** A batch of one message whose body has `chars` characters, tagged `tag`. */
function bigBatch(tag: number, chars: number) {
  return { stream: "transactional", messages: [{ tos: ["+254712345678"], body: `${tag}:${"x".repeat(chars)}` }] };
}

describe("a small byte budget under a flood", () => {
  let emulator: Emulator;
  beforeEach(async () => {
    emulator = await startEmulator({ maxStoredBytes: BUDGET, deliveryRetrySchedule: [] });
  });
  afterEach(() => emulator.close());

  it("keeps batches within the budget, evicting the oldest, and keeps answering", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const sent = await call(emulator, "/v1/message_batches", { json: bigBatch(i, 30_000) });
      expect(sent.status).toBe(200);
      ids.push(sent.json.id);
      expect(emulator.storageTotals().storedBytes).toBeLessThanOrEqual(BUDGET);
    }
    const stored = emulator.batches();
    const totals = emulator.batchTotals();
    // 40 batches of ~60 KB (2 bytes a character) cannot all fit in 256 KiB: the newest stay, in order.
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.length).toBeLessThan(40);
    expect(stored.map((batch) => batch.id)).toEqual(ids.slice(-stored.length));
    expect(totals).toMatchObject({ batches: 40, evictedBatches: 40 - stored.length, storedBatches: stored.length });
    // What is kept is kept exactly.
    expect(stored.at(-1)!.messages[0].body).toBe(bigBatch(39, 30_000).messages[0].body);
    const listed = await call(emulator, "/_emulator/batches");
    expect(listed.status).toBe(200);
    expect(Number(listed.headers["x-emulator-stored-bytes"])).toBeLessThanOrEqual(BUDGET);
  });

  it("a batch larger than the whole budget is accepted, counted, then evicted at once", async () => {
    const sent = await call(emulator, "/v1/message_batches", { json: bigBatch(0, 200_000) });
    expect(sent.status).toBe(200);
    expect(emulator.batches()).toEqual([]);
    expect(emulator.batchTotals()).toMatchObject({ batches: 1, evictedBatches: 1, storedBytes: 0 });
  });

  it("never evicts endpoints: batches make room, and a create that cannot fit is refused (409) naming the budget", async () => {
    for (let i = 0; i < 3; i++) expect((await call(emulator, "/v1/message_batches", { json: bigBatch(i, 30_000) })).status).toBe(200);
    const created: string[] = [];
    let refused;
    for (let i = 0; i < 400 && refused === undefined; i++) {
      const answer = await call(emulator, "/v1/webhooks/endpoints", { form: endpointForm({ description: "d".repeat(1024) }) });
      if (answer.status === 200) created.push(answer.json.id);
      else refused = answer;
      expect(emulator.storageTotals().storedBytes).toBeLessThanOrEqual(BUDGET);
    }
    expect(refused?.status).toBe(409);
    expect(refused?.json.title).toBe("endpoint_limit_reached");
    expect(refused?.json.detail).toMatch(/storage budget \(--max-stored-bytes\)/);
    // Every endpoint created is still there; the batches gave way.
    expect(emulator.endpoints().map((endpoint) => endpoint.id)).toEqual(created);
    expect(emulator.batches()).toEqual([]);
    // Still answering, and batches are still accepted (then evicted: the endpoints fill the budget).
    expect((await call(emulator, "/v1/message_batches", { json: bigBatch(9, 10) })).status).toBe(200);
  });

  it("keeps events within the budget, evicting the oldest", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const emitted = await call(emulator, "/_emulator/events", {
        json: { type: "payment.succeeded", data: { note: "n".repeat(30_000) } },
      });
      expect(emitted.status).toBe(200);
      ids.push(String(emitted.headers["x-emulator-event-id"]));
      expect(emulator.storageTotals().storedBytes).toBeLessThanOrEqual(BUDGET);
    }
    const kept = emulator.events().map((recorded) => recorded.event.id);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(ids.slice(-kept.length));
    expect(emulator.storageTotals().evictedEvents).toBe(20 - kept.length);
  });
});

describe("memory pressure: 503 with Retry-After, never an abort", () => {
  it("MemoryGuard refuses a body while others hold the in-flight limit, and when the heap is nearly full", () => {
    let used = 10;
    const guard = new MemoryGuard({ maxInFlightBytes: 100, heap: () => ({ used, limit: 100 }) });
    expect(guard.shortOfRoom(1000)).toBeUndefined(); // one request always passes
    guard.hold(60);
    expect(guard.shortOfRoom(30)).toBeUndefined();
    expect(guard.shortOfRoom(50)).toMatch(/reading 60 bytes of other requests' bodies/);
    guard.release(60);
    expect(guard.shortOfRoom(50)).toBeUndefined();
    used = 90;
    expect(guard.shortOfRoom(0)).toMatch(/heap is 90% full/);
  });

  it("answers 503 with Retry-After while another request's body holds the in-flight limit, then takes requests again", async () => {
    const emulator = await startEmulator({ maxInFlightBytes: 64 * 1024, deliveryRetrySchedule: [] });
    const { port } = new URL(emulator.url);
    const slow = net.connect(Number(port), "127.0.0.1");
    try {
      await new Promise<void>((resolve) => slow.once("connect", () => resolve()));
      // Half of a 200 KiB body: the emulator holds it while it waits for the rest.
      slow.write(
        "POST /v1/message_batches HTTP/1.1\r\nHost: localhost\r\n" +
          `Authorization: ${basicAuth(emulator.apiKey)}\r\nX-Service-Version: ${VERSION}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${200 * 1024}\r\n\r\n`,
      );
      slow.write(Buffer.alloc(100 * 1024, " "));
      // Poll until the emulator has counted those bytes (no timing: each answer is awaited).
      let answer = await call(emulator, "/v1/message_batches", { json: {} });
      while (answer.status === 400) answer = await call(emulator, "/v1/message_batches", { json: {} });
      expect(answer.status).toBe(503);
      expect(answer.json.title).toBe("service_unavailable");
      expect(answer.headers["retry-after"]).toBe("1");
      slow.destroy();
      // Once the slow request is gone, its bytes are released.
      while (answer.status === 503) answer = await call(emulator, "/v1/message_batches", { json: bigBatch(1, 10) });
      expect(answer.status).toBe(200);
    } finally {
      slow.destroy();
      await emulator.close();
    }
  });
});
