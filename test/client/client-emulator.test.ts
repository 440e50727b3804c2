/**
 * The client against the real emulator on a loopback port: assertions are on what the
 * emulator recorded, not on what the client says it did.
 */
import { inspect } from "node:util";
import { MessagingClient, type MessagingClientOptions } from "../../client";
import { startEmulator, type Emulator } from "../../emulator";
import { AuthenticationError, ConflictError, InvalidRequestError, isAuthenticationError, isValidationError } from "../../errors";
import type { Message } from "../../schemas";

const API_KEY = "sk_test_client_it_5d2f8a";

let emulator: Emulator;
const clients: MessagingClient[] = [];

beforeEach(async () => {
  emulator = await startEmulator({ port: 0, apiKey: API_KEY });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await emulator.close();
});

/** A client with small backoff and `Retry-After` capped at 10 ms, so fault runs stay quick. */
function client(options: Partial<MessagingClientOptions> = {}): MessagingClient {
  const created = new MessagingClient({
    apiKey: API_KEY,
    baseUrl: `${emulator.url}/`,
    retryBaseDelayMs: 2,
    retryMaxDelayMs: 20,
    maxRetryAfterMs: 10,
    ...options,
  });
  clients.push(created);
  return created;
}

function messages(count: number): Message[] {
  return Array.from({ length: count }, (_, i) => ({ tos: [`+2547${String(i).padStart(8, "0")}`], body: `message ${i}` }));
}

describe("webhook endpoints", () => {
  it("creates an endpoint and the emulator records its url, events, format and description", async () => {
    const endpoint = await client().createWebhookEndpoint({
      url: "https://receiver.example.com/hooks?team=ops",
      events: ["payment.succeeded", "identity.verification.created"],
      format: "cloudEvents",
      description: "Payments & identity",
    });
    const recorded = emulator.endpoints();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      url: "https://receiver.example.com/hooks?team=ops",
      events: ["payment.succeeded", "identity.verification.created"],
      format: "cloudEvents",
      description: "Payments & identity",
      status: "enabled",
    });
    expect(endpoint.id).toMatch(/^we_/);
    expect(endpoint).toEqual(recorded[0]);
  });

  it("sends format basic and no description when they are not given", async () => {
    await client().createWebhookEndpoint({ url: "https://receiver.example.com/h", events: ["payment.succeeded"] });
    expect(emulator.endpoints()[0]).toMatchObject({ format: "basic", description: null, events: ["payment.succeeded"] });
  });

  it("a wrong key gives an AuthenticationError that does not carry the key, and nothing is created", async () => {
    const wrongKey = "sk_test_WRONG_key_77aa";
    const error = await client({ apiKey: wrongKey })
      .createWebhookEndpoint({ url: "https://receiver.example.com/h", events: ["payment.succeeded"] })
      .then(
        () => undefined,
        (e: unknown) => e as AuthenticationError,
      );
    expect(isAuthenticationError(error)).toBe(true);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error?.status).toBe(401);
    for (const text of [error?.message ?? "", JSON.stringify(error), inspect(error, { depth: 10, showHidden: true })]) {
      expect(text).not.toContain(wrongKey);
      expect(text).not.toContain(Buffer.from(`${wrongKey}:`).toString("base64"));
      expect(text).not.toContain(API_KEY);
    }
    expect(emulator.endpoints()).toHaveLength(0);
    expect(emulator.requestCount()).toBe(1); // 401 is not retried
  });

  it("a request whose response was lost is retried and creates one endpoint, not two", async () => {
    emulator.setFaults({ script: ["drop_after_processing"] });
    const endpoint = await client().createWebhookEndpoint({ url: "https://receiver.example.com/h", events: ["payment.succeeded"] });
    expect(emulator.requestCount()).toBe(2); // the first answer was dropped after the endpoint was made
    const recorded = emulator.endpoints();
    expect(recorded).toHaveLength(1);
    expect(endpoint.id).toBe(recorded[0].id);
    expect(endpoint.secret).toBe(recorded[0].secret);
  });

  it("with idempotency keys, the same call repeated by the caller creates one endpoint; another body under that key is refused", async () => {
    const messaging = client();
    const input = { url: "https://receiver.example.com/h", events: ["payment.succeeded"] };
    const first = await messaging.createWebhookEndpoint(input, { idempotencyKey: "create-hook-1" });
    const second = await messaging.createWebhookEndpoint(input, { idempotencyKey: "create-hook-1" });
    expect(second.id).toBe(first.id);
    expect(emulator.endpoints()).toHaveLength(1);
    const error = await messaging.createWebhookEndpoint({ ...input, description: "changed" }, { idempotencyKey: "create-hook-1" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    // The same key with a different body is refused with 409 or 422 (docs/spec-silences.md).
    expect(error instanceof ConflictError || error instanceof InvalidRequestError).toBe(true);
    expect([409, 422]).toContain((error as ConflictError).status);
    expect(emulator.endpoints()).toHaveLength(1);
  });
});

describe("message batches", () => {
  it("sends one batch; the emulator records its stream and messages", async () => {
    const request = {
      stream: "transactional",
      messages: [
        { tos: ["+254712345678", "+254712345679"], body: "Your order shipped" },
        { tos: ["+254700000001"], template: { id: "tmpl_reminder", model: { name: "Amina", when: "tomorrow" } } },
      ],
    };
    const result = await client().sendMessageBatch(request);
    const [recorded] = emulator.batches();
    expect(emulator.batches()).toHaveLength(1);
    expect(result.id).toBe(recorded.id);
    expect(recorded.id).toMatch(/^msba_/);
    expect({ stream: recorded.stream, messages: recorded.messages }).toEqual(request);
  });

  it("rejects invalid input before any request reaches the emulator", async () => {
    const error = await client()
      .sendMessageBatch({
        stream: "transactional",
        messages: [
          { tos: ["+254712345678"], body: "ok" },
          { tos: ["0712"], body: "x" },
        ],
      })
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    expect(isValidationError(error)).toBe(true);
    expect(error?.message).toMatch(/messages\[1\]\.tos\[0\]/);
    expect(emulator.requestCount()).toBe(0);
  });

  it("sends 2,500 messages as 3 batches, recorded in order with every message", async () => {
    const input = messages(2500);
    const result = await client().sendMessages(input, { stream: "transactional", idempotencyKeyPrefix: "it-2500" });
    const recorded = emulator.batches();
    expect(recorded.map((b) => b.messages.length)).toEqual([1000, 1000, 500]);
    expect(recorded.flatMap((b) => b.messages)).toEqual(input);
    expect(recorded.every((b) => b.stream === "transactional")).toBe(true);
    expect(result.batches.map((b) => b.id)).toEqual(recorded.map((b) => b.id));
    expect(result.messageCount).toBe(2500);
  });

  it("a re-run with the same prefix records nothing new", async () => {
    const messaging = client();
    const input = messages(2500);
    const first = await messaging.sendMessages(input, { stream: "transactional", idempotencyKeyPrefix: "rerun-7" });
    const requestsAfterFirst = emulator.requestCount();
    const second = await messaging.sendMessages(input, { stream: "transactional", idempotencyKeyPrefix: "rerun-7" });
    expect(emulator.requestCount()).toBe(requestsAfterFirst + 3); // it did call the service again…
    expect(emulator.batches()).toHaveLength(3); // …which recorded nothing new
    expect(second.batches).toEqual(first.batches);
  });

  it("with 30% of requests failing (fixed seed), every message is recorded exactly once", async () => {
    const seed = 20240601;
    emulator.setFaults({ failureRate: 0.3, seed });
    const input = messages(5000);
    const result = await client({ maxRetries: 10 }).sendMessages(input, {
      stream: "transactional",
      batchSize: 250,
      idempotencyKeyPrefix: "faulty",
    });
    const recorded = emulator.batches();
    expect(emulator.requestCount()).toBeGreaterThan(20); // faults did happen and were retried
    // What the emulator did to those requests: the run met lost responses and resets, not only error statuses.
    const met = emulator.faultLog();
    expect(met).toHaveLength(emulator.requestCount());
    expect(met).toContain("drop_after_processing");
    expect(met).toContain("reset_before_processing");
    expect(recorded).toHaveLength(20);
    expect(recorded.flatMap((b) => b.messages)).toEqual(input);
    expect(result.batches.map((b) => b.id)).toEqual(recorded.map((b) => b.id));
  });

  it("with faults and several chunks in flight, every message is still recorded exactly once", async () => {
    emulator.setFaults({ failureRate: 0.3, seed: 7 });
    const input = messages(3000);
    const result = await client({ maxRetries: 10 }).sendMessages(input, { stream: "transactional", batchSize: 200, concurrency: 4 });
    const bodies = emulator.batches().flatMap((b) => b.messages.map((m) => m.body));
    expect(bodies).toHaveLength(3000);
    expect(new Set(bodies)).toEqual(new Set(input.map((m) => m.body)));
    expect(result.batches.map((b) => b.index)).toEqual(Array.from({ length: 15 }, (_, i) => i));
  });
});

describe("one nesting rule for a template model, the client's and the service's", () => {
  const nested = (levels: number): Record<string, unknown> => {
    let model: Record<string, unknown> = { leaf: true };
    for (let i = 1; i < levels; i++) model = { a: model };
    return model;
  };
  const withModel = (levels: number): Message => ({ tos: ["+254712345678"], template: { id: "tmpl_deep", model: nested(levels) } });

  test("the deepest model the client accepts is one the emulator accepts", async () => {
    await client().sendMessageBatch({ stream: "transactional", messages: [withModel(28)] });
    expect(emulator.batches()).toHaveLength(1);
  });

  test("a model one level deeper is refused by the client before anything is sent, naming the message", async () => {
    const batch = [...messages(4500), withModel(29), ...messages(499)];
    const error = await client()
      .sendMessages(batch, { stream: "transactional" })
      .catch((caught: unknown) => caught);
    expect(isValidationError(error)).toBe(true);
    expect(String((error as Error).message)).toMatch(/messages\[4500\]\.template\.model(\.a)+: nested more than 28 levels deep/);
    expect(emulator.batches()).toHaveLength(0);
    expect(emulator.requestCount()).toBe(0);
  });
});
