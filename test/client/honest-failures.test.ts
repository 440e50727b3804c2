/**
 * Errors a caller can act on: every error of a POST carries the `Idempotency-Key` it was sent
 * with (retrying with it cannot duplicate), and nothing the server sends back puts the API
 * key into an error — against real loopback servers.
 */
import { inspect } from "node:util";
import { MessagingClient, type RequestOptions } from "../../client";
import {
  isAuthenticationError,
  isConnectionError,
  isInvalidRequestError,
  isResponseSchemaError,
  isServerError,
  isTimeoutError,
} from "../../errors";
import { allStrings, rejection } from "../support/mock-service";
import { startServer, type TestServer } from "../support/loopback-server";

const KEY = "sk_live_echoed_5d1f0c8a2b7e";
const BASIC = Buffer.from(`${KEY}:`).toString("base64");
const batch = { stream: "transactional", messages: [{ tos: ["+254712345678"], body: "hi" }] };
const endpoint = { url: "https://example.com/hooks", events: ["payment.succeeded"] };

let server: TestServer | undefined;
let client: MessagingClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

function newClient(url: string, options: { timeoutMs?: number } = {}): MessagingClient {
  client = new MessagingClient({ apiKey: KEY, baseUrl: url, maxRetries: 1, retryBaseDelayMs: 1, retryMaxDelayMs: 2, ...options });
  return client;
}

type Call = (client: MessagingClient, options: RequestOptions) => Promise<unknown>;
const CALLS: Array<[string, Call]> = [
  ["createWebhookEndpoint", (c, o) => c.createWebhookEndpoint(endpoint, o)],
  ["sendMessageBatch", (c, o) => c.sendMessageBatch(batch, o)],
];

describe("every error of a POST carries its idempotency key", () => {
  it.each(CALLS)("%s: a call refused outright (401) keeps the key on the error, and its message gives no retry advice", async (_, call) => {
    server = await startServer((_req, res) =>
      res.writeHead(401, { "content-type": "application/problem+json" }).end('{"title":"unauthorized"}'),
    );
    const error = await rejection(call(newClient(server.url), { idempotencyKey: "order-42-create" }));
    expect((error as { idempotencyKey?: string }).idempotencyKey).toBe("order-42-create");
    expect(error.message).not.toContain("idempotency");
  });

  it.each(CALLS)("%s: ServerError after retries, with the key every attempt used", async (_, call) => {
    server = await startServer((_req, res) =>
      res.writeHead(503, { "content-type": "application/problem+json" }).end('{"title":"unavailable"}'),
    );
    const error = await rejection(call(newClient(server.url), { idempotencyKey: "order-42-create" }));
    expect(isServerError(error)).toBe(true);
    expect((error as { idempotencyKey?: string }).idempotencyKey).toBe("order-42-create");
    expect(error.message).toContain("idempotency key: order-42-create");
    expect(server.requests.map((req) => req.headers["idempotency-key"])).toEqual(["order-42-create", "order-42-create"]);
  });

  it.each(CALLS)("%s: ConnectionError (reset on every attempt), with the generated key", async (_, call) => {
    server = await startServer((req) => req.socket.destroy());
    const error = await rejection(call(newClient(server.url), {}));
    expect(isConnectionError(error)).toBe(true);
    const key = (error as { idempotencyKey?: string }).idempotencyKey;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.requests.map((req) => req.headers["idempotency-key"])).toEqual([key, key]);
  });

  it.each(CALLS)("%s: TimeoutError, with the key", async (_, call) => {
    server = await startServer(() => undefined); // never answers
    const error = await rejection(call(newClient(server.url, { timeoutMs: 50 }), { idempotencyKey: "k-timeout" }));
    expect(isTimeoutError(error)).toBe(true);
    expect((error as { idempotencyKey?: string }).idempotencyKey).toBe("k-timeout");
  });

  it("ResponseSchemaError of an endpoint answer without a secret, with the key", async () => {
    server = await startServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"id":"we_1"}'));
    const error = await rejection(newClient(server.url).createWebhookEndpoint(endpoint, { idempotencyKey: "k-schema" }));
    expect(isResponseSchemaError(error)).toBe(true);
    expect((error as { idempotencyKey?: string }).idempotencyKey).toBe("k-schema");
  });

  it("retrying with the carried key is answered from the service's record, not applied twice", async () => {
    // First call: the service applies it, then the connection drops on every attempt.
    const applied = new Set<string>();
    server = await startServer((req, res, n) => {
      const key = String(req.headers["idempotency-key"]);
      applied.add(key);
      if (n <= 2) req.socket.destroy();
      else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: `msba_${key}` }));
    });
    const error = await rejection(newClient(server.url).sendMessageBatch(batch));
    const key = (error as { idempotencyKey?: string }).idempotencyKey!;
    await expect(client!.sendMessageBatch(batch, { idempotencyKey: key })).resolves.toEqual({ id: `msba_${key}` });
    expect(applied).toEqual(new Set([key]));
  });
});

describe("a server echoing the Authorization header does not leak the key", () => {
  const echoes = (auth: string) => ({
    type: "urn:problem:echo",
    title: `bad ${auth}`,
    detail: `you sent Authorization: ${auth}; raw key ${KEY}; base64 ${BASIC}`,
    errors: { [`header ${auth}`]: [`value ${KEY}`], [BASIC]: ["again"] },
    headers: { authorization: auth },
  });

  it.each([
    [400, isInvalidRequestError],
    [401, isAuthenticationError],
    [500, isServerError],
  ] as const)("HTTP %i: message, problem, field errors, request id and inspect output are scrubbed", async (status, is) => {
    server = await startServer((req, res) => {
      const auth = String(req.headers.authorization);
      res
        .writeHead(status, { "content-type": "application/problem+json", "x-request-id": `req ${auth}` })
        .end(JSON.stringify(echoes(auth)));
    });
    const error = await rejection(newClient(server.url).sendMessageBatch(batch));
    expect(is(error)).toBe(true);
    const everything = [error.message, inspect(error, { depth: 10, showHidden: true }), JSON.stringify(error), ...allStrings(error)].join(
      "\n",
    );
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(BASIC);
    expect(everything).not.toContain(BASIC.replace(/=+$/, ""));
    // What the server said is still there, with the key replaced.
    expect(error.message).toContain("you sent Authorization: [REDACTED]; raw key [REDACTED]");
    expect(Object.keys((error as unknown as { fieldErrors: Record<string, string[]> }).fieldErrors)).toEqual([
      "header [REDACTED]",
      "[REDACTED]",
    ]);
  });
});
