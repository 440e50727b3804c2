/**
 * The client against real loopback sockets, for what neither MockAgent nor the emulator
 * produces on demand: a server that never answers, a refused port, socket reuse.
 */
import { startServer, type TestServer } from "../support/loopback-server";
import { MessagingClient } from "../../client";
import { ConnectionError, TimeoutError, isConnectionError, isTimeoutError } from "../../errors";

const KEY = "sk_test_network_81c0";
const batch = { stream: "transactional", messages: [{ tos: ["+254712345678"], body: "hi" }] };

let server: TestServer | undefined;
let client: MessagingClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

function newClient(url: string, options: { timeoutMs?: number; maxRetries?: number } = {}) {
  return new MessagingClient({ apiKey: KEY, baseUrl: url, retryBaseDelayMs: 1, retryMaxDelayMs: 4, maxRetryAfterMs: 5, ...options });
}

it("times out an attempt that gets no answer, retries it, then throws TimeoutError", async () => {
  server = await startServer(() => {
    /* never answers */
  });
  client = newClient(server.url, { timeoutMs: 100, maxRetries: 1 });
  const error = await client.sendMessageBatch(batch).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isTimeoutError(error)).toBe(true);
  expect((error as TimeoutError).attempts).toBe(2);
  expect((error as TimeoutError).timeoutMs).toBe(100);
  expect(server.requests).toHaveLength(2);
});

it("times out a response whose body stalls after the headers", async () => {
  server = await startServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"id":');
  });
  client = newClient(server.url, { timeoutMs: 100, maxRetries: 0 });
  await expect(client.sendMessageBatch(batch)).rejects.toBeInstanceOf(TimeoutError);
});

it("a caller's abort while a request is in flight rejects with its reason at once, without a retry", async () => {
  server = await startServer(() => {
    /* never answers */
  });
  client = newClient(server.url, { timeoutMs: 10_000, maxRetries: 2 });
  const controller = new AbortController();
  const reason = new Error("caller gave up");
  const call = client.sendMessageBatch(batch, { signal: controller.signal });
  while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  controller.abort(reason);
  await expect(call).rejects.toBe(reason);
  expect(server.requests).toHaveLength(1);
});

it("reads an answer that starts with a UTF-8 byte order mark, in pieces", async () => {
  server = await startServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write(Buffer.from([0xef, 0xbb, 0xbf]));
    res.end('{"id":"msba_bom"}');
  });
  client = newClient(server.url);
  await expect(client.sendMessageBatch(batch)).resolves.toEqual({ id: "msba_bom" });
});

it("retries a request whose connection dropped after it was processed, with the same idempotency key", async () => {
  server = await startServer((req, res, n) => {
    if (n === 1) {
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: "msba_second" }));
  });
  client = newClient(server.url);
  await expect(client.sendMessageBatch(batch)).resolves.toEqual({ id: "msba_second" });
  expect(server.requests).toHaveLength(2);
  const keys = server.requests.map((req) => req.headers["idempotency-key"]);
  expect(keys[0]).toBeDefined();
  expect(keys[1]).toBe(keys[0]);
});

it("throws ConnectionError after every attempt is refused", async () => {
  const probe = await startServer(() => undefined);
  const url = probe.url;
  await probe.close(); // nothing listens on that port any more
  client = newClient(url, { maxRetries: 2 });
  const error = await client.sendMessageBatch(batch).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isConnectionError(error)).toBe(true);
  expect((error as ConnectionError).attempts).toBe(3);
  expect((error as Error).message).not.toContain(KEY);
});

it("reads every response body, so one connection serves successive calls and their retries", async () => {
  server = await startServer((_req, res, n) => {
    if (n % 2 === 1) {
      res
        .writeHead(503, { "content-type": "application/problem+json" })
        .end(JSON.stringify({ title: "unavailable", detail: "x".repeat(1_000_000) }));
    } else {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: `msba_${n}` }));
    }
  });
  client = newClient(server.url);
  for (let i = 0; i < 3; i++) await client.sendMessageBatch(batch);
  expect(server.requests).toHaveLength(6);
  // Unread bodies would pin each socket and force a new connection per request.
  expect(server.connections).toBeLessThanOrEqual(2);
});

it("sends its headers to a real server through its own agent", async () => {
  server = await startServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  client = newClient(server.url);
  await client.sendMessageBatch(batch);
  const [req] = server.requests;
  expect(req.headers.authorization).toBe(`Basic ${Buffer.from(`${KEY}:`).toString("base64")}`);
  expect(req.headers["x-service-version"]).toBe("2024-06-01");
  expect(req.headers["content-type"]).toBe("application/json");
  expect(req.headers["user-agent"]).toMatch(/^pulumi-messaging\//);
});
