import { IdempotencyStore, requestFingerprint } from "../../../emulator/http/idempotency";
import { jsonReply } from "../../../emulator/http/reply";
import { call, endpointForm, message, emulatorForEachTest } from "../../support/emulator";

const emulator = emulatorForEachTest();

describe("idempotency keys on the API", () => {
  it("replays the stored answer for the same key and body, creating one endpoint", async () => {
    const form = endpointForm();
    const first = await call(emulator, "/v1/webhooks/endpoints", { form, headers: { "idempotency-key": "key-endpoint-1" } });
    const second = await call(emulator, "/v1/webhooks/endpoints", { form, headers: { "idempotency-key": "key-endpoint-1" } });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(emulator.endpoints()).toHaveLength(1);
  });

  it("replays a batch too, recording it once", async () => {
    const json = { stream: "transactional", messages: [message()] };
    const first = await call(emulator, "/v1/message_batches", { json, headers: { "idempotency-key": "batch-1" } });
    const second = await call(emulator, "/v1/message_batches", { json, headers: { "idempotency-key": "batch-1" } });
    expect(second.json).toEqual(first.json);
    expect(emulator.batches()).toHaveLength(1);
  });

  it("rejects the same key with a different body with 422 idempotency_key_reused", async () => {
    await call(emulator, "/v1/webhooks/endpoints", { form: endpointForm(), headers: { "idempotency-key": "key-2" } });
    const reused = await call(emulator, "/v1/webhooks/endpoints", {
      form: endpointForm({ url: "https://example.org/other" }),
      headers: { "idempotency-key": "key-2" },
    });
    expect(reused.status).toBe(422);
    expect(reused.json.title).toBe("idempotency_key_reused");
    expect(emulator.endpoints()).toHaveLength(1);
  });

  it("rejects the same key on another route with 422", async () => {
    await call(emulator, "/v1/webhooks/endpoints", { form: endpointForm(), headers: { "idempotency-key": "key-3" } });
    const other = await call(emulator, "/v1/message_batches", {
      json: { stream: "transactional", messages: [message()] },
      headers: { "idempotency-key": "key-3" },
    });
    expect(other.status).toBe(422);
    expect(emulator.batches()).toEqual([]);
  });

  it("creates anew for each request without a key, and for different keys", async () => {
    const form = endpointForm();
    await call(emulator, "/v1/webhooks/endpoints", { form });
    await call(emulator, "/v1/webhooks/endpoints", { form });
    await call(emulator, "/v1/webhooks/endpoints", { form, headers: { "idempotency-key": "a" } });
    await call(emulator, "/v1/webhooks/endpoints", { form, headers: { "idempotency-key": "b" } });
    expect(emulator.endpoints()).toHaveLength(4);
  });

  it("does not store a rejected request: the key stays free for the corrected body", async () => {
    const bad = await call(emulator, "/v1/webhooks/endpoints", {
      form: endpointForm({ url: "nope" }),
      headers: { "idempotency-key": "key-4" },
    });
    expect(bad.status).toBe(400);
    const good = await call(emulator, "/v1/webhooks/endpoints", { form: endpointForm(), headers: { "idempotency-key": "key-4" } });
    expect(good.status).toBe(200);
    expect(good.headers["idempotent-replayed"]).toBeUndefined();
    expect(emulator.endpoints()).toHaveLength(1);
  });

  it("rejects an over-long key with 400 invalid_idempotency_key", async () => {
    const result = await call(emulator, "/v1/webhooks/endpoints", {
      form: endpointForm(),
      headers: { "idempotency-key": "k".repeat(256) },
    });
    expect(result.status).toBe(400);
    expect(result.json.title).toBe("invalid_idempotency_key");
    expect(emulator.endpoints()).toEqual([]);
  });
});

describe("IdempotencyStore", () => {
  const fingerprint = requestFingerprint("POST", "/v1/x", Buffer.from("body"));

  it("reports a key in flight until it completes, then replays", () => {
    const store = new IdempotencyStore();
    expect(store.begin("k", fingerprint)).toEqual({ kind: "new" });
    expect(store.begin("k", fingerprint)).toEqual({ kind: "in_flight" });
    const reply = jsonReply(200, { id: "we_1" });
    store.complete("k", reply);
    expect(store.begin("k", fingerprint)).toEqual({ kind: "replay", reply });
  });

  it("reports a mismatch for another fingerprint, in flight or stored", () => {
    const store = new IdempotencyStore();
    store.begin("k", fingerprint);
    const other = requestFingerprint("POST", "/v1/x", Buffer.from("other body"));
    expect(store.begin("k", other)).toEqual({ kind: "mismatch" });
    store.complete("k", jsonReply(200, {}));
    expect(store.begin("k", other)).toEqual({ kind: "mismatch" });
  });

  it("frees a released key but never a completed one", () => {
    const store = new IdempotencyStore();
    store.begin("k", fingerprint);
    store.release("k");
    expect(store.begin("k", fingerprint)).toEqual({ kind: "new" });
    store.complete("k", jsonReply(200, {}));
    store.release("k");
    expect(store.begin("k", fingerprint).kind).toBe("replay");
  });

  it("fingerprints method, path and body bytes", () => {
    const body = Buffer.from("a=1");
    expect(requestFingerprint("POST", "/v1/a", body)).toBe(requestFingerprint("POST", "/v1/a", Buffer.from("a=1")));
    expect(requestFingerprint("POST", "/v1/a", body)).not.toBe(requestFingerprint("POST", "/v1/b", body));
    expect(requestFingerprint("POST", "/v1/a", body)).not.toBe(requestFingerprint("PUT", "/v1/a", body));
    expect(requestFingerprint("POST", "/v1/a", body)).not.toBe(requestFingerprint("POST", "/v1/a", Buffer.from("a=2")));
  });
});
