/** The emulator's memory is bounded: stored batches, idempotency keys. */
import { BatchStore, batchBytes } from "../../emulator/storage/batch-store";
import { IdempotencyStore } from "../../emulator/http/idempotency";
import { StoredText } from "../../emulator/storage/stored-text";
import type { EmulatedWebhookEndpoint } from "../../emulator/records";
import { EmulatorStore, type StoredBatch } from "../../emulator/storage/store";
import { startEmulator } from "../../emulator";
import { call, endpointForm, message, recordedEndpoint } from "../support/emulator";

const batch = (id: string, count: number): StoredBatch => ({
  id,
  stream: "s",
  created: "2026-01-01T00:00:00.000Z",
  messageCount: count,
  messagesJson: StoredText.of(JSON.stringify(Array.from({ length: count }, (_, i) => message(i)))),
});

describe("BatchStore", () => {
  it("evicts the oldest batches beyond maxMessages; totals keep counting", () => {
    const store = new BatchStore(5);
    store.add(batch("a", 2));
    store.add(batch("b", 2));
    store.add(batch("c", 2)); // 6 > 5: "a" goes
    expect([...store.page(undefined)].map((b) => b.id)).toEqual(["b", "c"]);
    expect(store.totals()).toEqual({
      batches: 3,
      messages: 6,
      storedBatches: 2,
      storedMessages: 4,
      evictedBatches: 1,
      storedBytes: batchBytes(batch("b", 2)) + batchBytes(batch("c", 2)),
    });
    expect(store.has("a")).toBe(false);
  });

  it("pages oldest first with after and limit, and keeps paging across compaction", () => {
    const store = new BatchStore(3000);
    for (let i = 0; i < 5000; i++) store.add(batch(`b${i}`, 1));
    expect([...store.page(undefined, 2)].map((b) => b.id)).toEqual(["b2000", "b2001"]);
    expect([...store.page("b4997", 10)].map((b) => b.id)).toEqual(["b4998", "b4999"]);
    expect(store.newest(2).map((b) => b.id)).toEqual(["b4999", "b4998"]);
  });

  it("skips batches evicted while a page is being read", () => {
    const store = new BatchStore(3);
    for (const id of ["a", "b", "c"]) store.add(batch(id, 1));
    const page = store.page(undefined);
    expect(page.next().value?.id).toBe("a");
    store.add(batch("d", 1)); // evicts "a", already read
    store.add(batch("e", 1)); // evicts "b"
    expect([...page].map((b) => b.id)).toEqual(["c", "d", "e"]);
  });

  it("keeps nothing with maxMessages 0, but counts", () => {
    const store = new BatchStore(0);
    store.add(batch("a", 3));
    expect([...store.page(undefined)]).toEqual([]);
    expect(store.totals().messages).toBe(3);
  });
});

describe("EmulatorStore endpoints", () => {
  const endpoint = (id: string): EmulatedWebhookEndpoint => recordedEndpoint({ id });

  it("looks an endpoint up by id, the recorded object; undefined for an unknown id", () => {
    const store = new EmulatorStore();
    const [a, b] = [endpoint("we_a"), endpoint("we_b")];
    store.addEndpoint(a);
    store.addEndpoint(b);
    expect(store.endpoint("we_b")).toBe(b);
    expect(store.endpoint("we_a")).toBe(a);
    expect(store.endpoint("we_c")).toBeUndefined();
    expect(store.endpoint("__proto__")).toBeUndefined();
  });
});

describe("IdempotencyStore", () => {
  const reply = { status: 200, headers: {}, body: "{}" };
  it("forgets keys after the TTL", () => {
    let now = 0;
    const store = new IdempotencyStore({ ttlMs: 1000, now: () => now });
    expect(store.begin("k", "f").kind).toBe("new");
    store.complete("k", reply);
    expect(store.begin("k", "f").kind).toBe("replay");
    now = 1000;
    expect(store.begin("k", "other").kind).toBe("new");
  });

  it("keeps at most maxKeys, forgetting the oldest", () => {
    const store = new IdempotencyStore({ maxKeys: 2 });
    for (const key of ["a", "b", "c"]) {
      store.begin(key, "f");
      store.complete(key, reply);
    }
    expect(store.size).toBe(2);
    expect(store.begin("a", "f").kind).toBe("new");
    expect(store.begin("c", "f").kind).toBe("replay");
  });
});

describe("GET /_emulator/batches with maxStoredMessages", () => {
  it("lists what is kept, oldest first, and pages with limit and after", async () => {
    const emulator = await startEmulator({ maxStoredMessages: 4 });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        const sent = await call(emulator, "/v1/message_batches", { json: { stream: "s", messages: [message(i), message(i + 10)] } });
        ids.push(sent.json.id);
      }
      const all = await call(emulator, "/_emulator/batches");
      expect(all.json.map((b: { id: string }) => b.id)).toEqual(ids.slice(2));
      expect(all.headers["x-emulator-batches-accepted"]).toBe("4");
      expect(all.headers["transfer-encoding"]).toBe("chunked");
      const page = await call(emulator, `/_emulator/batches?limit=1&after=${ids[2]}`);
      expect(page.json.map((b: { id: string }) => b.id)).toEqual([ids[3]]);
      const gone = await call(emulator, `/_emulator/batches?after=${ids[0]}`);
      expect(gone.status).toBe(400);
      expect(gone.json.errors.after[0]).toContain("evicted");
      expect(emulator.batchTotals()).toMatchObject({ batches: 4, messages: 8, storedMessages: 4 });
    } finally {
      await emulator.close();
    }
  });

  it("streams a listing larger than one write in pieces, intact", async () => {
    const emulator = await startEmulator();
    try {
      const messages = Array.from({ length: 1000 }, (_, i) => message(i));
      for (let i = 0; i < 5; i++)
        expect((await call(emulator, "/v1/message_batches", { json: { stream: "s", messages } })).status).toBe(200);
      const all = await call(emulator, "/_emulator/batches");
      expect(all.text.length).toBeGreaterThan(200_000);
      expect(all.json).toHaveLength(5);
      expect(all.json[4].messages[999]).toEqual(message(999));
    } finally {
      await emulator.close();
    }
  });
});

describe("other bounds", () => {
  it("refuses an endpoint beyond maxEndpoints with 409 endpoint_limit_reached", async () => {
    const emulator = await startEmulator({ maxEndpoints: 2 });
    try {
      for (let i = 0; i < 2; i++) expect((await call(emulator, "/v1/webhooks/endpoints", { form: endpointForm() })).status).toBe(200);
      const third = await call(emulator, "/v1/webhooks/endpoints", { form: endpointForm() });
      expect(third.status).toBe(409);
      expect(third.json.title).toBe("endpoint_limit_reached");
      expect(emulator.endpoints()).toHaveLength(2);
    } finally {
      await emulator.close();
    }
  });

  it("refuses an event body over 64 KiB with 413", async () => {
    const emulator = await startEmulator();
    try {
      const result = await call(emulator, "/_emulator/events", { json: { type: "payment.succeeded", data: { blob: "x".repeat(70_000) } } });
      expect(result.status).toBe(413);
      expect(result.json.title).toBe("payload_too_large");
      expect(emulator.events()).toEqual([]);
    } finally {
      await emulator.close();
    }
  });
});
