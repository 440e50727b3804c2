import { inspect } from "node:util";
import {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ResponseSchemaError,
  ServerError,
  ValidationError,
  isApiError,
  isAuthenticationError,
  isConfigurationError,
  isConnectionError,
  isRateLimitError,
  isResponseSchemaError,
  isServerError,
  isValidationError,
} from "../../errors";
import { MessagingClient, unreadableFields } from "../../client";
import {
  JSON_HEADERS,
  ORIGIN,
  PROBLEM_HEADERS,
  TEST_KEY,
  TEST_KEY_BASE64,
  allStrings,
  endpointObject,
  mockService,
  rejection,
} from "../support/mock-service";

const ENDPOINTS = "/v1/webhooks/endpoints";
const BATCHES = "/v1/message_batches";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const batch = { stream: "transactional", messages: [{ tos: ["+254712345678"], body: "hello" }] };

let service: ReturnType<typeof mockService>;
afterEach(async () => {
  await service?.close();
});

describe("validation happens before any request", () => {
  beforeEach(() => {
    service = mockService();
    // Would answer if anything were sent: it must stay unused.
    service.pool
      .intercept({ path: () => true, method: () => true })
      .reply(200, endpointObject())
      .persist();
  });

  it("names each bad field of a batch, e.g. messages[1].tos[0]", async () => {
    const error = await rejection(
      service.client.sendMessageBatch({
        stream: "transactional",
        messages: [{ tos: ["+254712345678"], body: "ok" }, { tos: ["0712345678"], body: "bad number" }, { tos: ["+254712345678"] }],
      }),
    );
    expect(isValidationError(error)).toBe(true);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toMatch(/messages\[1\]\.tos\[0\]: expected an E\.164 phone number/);
    expect(error.message).toMatch(/messages\[2\]: a message needs either body or template/);
    expect((error as ValidationError).fieldErrors).toHaveProperty(["messages[1].tos[0]"]);
    expect(service.calls()).toHaveLength(0);
  });

  it("rejects more than 1000 messages in one call", async () => {
    const messages = Array.from({ length: 1001 }, () => ({ tos: ["+254712345678"], body: "x" }));
    const error = await rejection(service.client.sendMessageBatch({ stream: "transactional", messages }));
    expect(error.message).toMatch(/messages: expected at most 1000 messages per call/);
    expect(service.calls()).toHaveLength(0);
  });

  it("rejects a message with both body and template, and an empty stream", async () => {
    const error = await rejection(
      service.client.sendMessageBatch({ stream: "", messages: [{ tos: ["+254712345678"], body: "b", template: { id: "t", model: {} } }] }),
    );
    expect(error.message).toMatch(/stream: expected a non-empty stream name/);
    expect(error.message).toMatch(/messages\[0\]\.template: a message carries either body or template, not both/);
    expect(service.calls()).toHaveLength(0);
  });

  it("names the fields of a bad webhook endpoint", async () => {
    const error = await rejection(service.client.createWebhookEndpoint({ url: "ftp://example.com", events: [], format: "xml" as never }));
    expect(isValidationError(error)).toBe(true);
    expect(error.message).toMatch(/url: expected an absolute http\(s\) URL/);
    expect(error.message).toMatch(/events: expected at least one event type/);
    expect(error.message).toMatch(/format:/);
    expect(service.calls()).toHaveLength(0);
  });

  it("rejects an idempotency key that cannot travel in a header", async () => {
    const error = await rejection(service.client.sendMessageBatch(batch, { idempotencyKey: "two words" }));
    expect(error.message).toMatch(/idempotencyKey: expected visible ASCII characters without spaces/);
    expect(service.calls()).toHaveLength(0);
  });
});

describe("what is sent", () => {
  beforeEach(() => {
    service = mockService();
  });

  it("creates an endpoint with a form body, Basic auth, version, accept, user agent and an idempotency key", async () => {
    service.pool.intercept({ path: ENDPOINTS, method: "POST" }).reply(200, endpointObject({ id: "we_new" }), JSON_HEADERS);
    const endpoint = await service.client.createWebhookEndpoint({
      url: "https://example.com/hook",
      events: ["payment.succeeded", "identity.verification.created"],
      description: "orders",
    });
    expect(endpoint.id).toBe("we_new");
    expect(endpoint.secret).toBe("whsec_TOP_SECRET_value");

    const [call] = service.calls();
    expect(call.method).toBe("POST");
    expect(call.path).toBe(ENDPOINTS);
    const headers = call.headers as Record<string, string>;
    expect(headers.authorization).toBe(`Basic ${TEST_KEY_BASE64}`);
    expect(headers["x-service-version"]).toBe("2024-06-01");
    expect(headers.accept).toBe("application/json");
    expect(headers["user-agent"]).toMatch(/^pulumi-messaging\/\d+\.\d+\.\d+/);
    expect(headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(headers["idempotency-key"]).toMatch(UUID);
    const form = new URLSearchParams(call.body ?? "");
    // One field per property in the schema's order; the array as repeated `events[]`.
    expect([...form.keys()]).toEqual(["url", "events[]", "events[]", "format", "description"]);
    expect(form.getAll("events[]")).toEqual(["payment.succeeded", "identity.verification.created"]);
    expect(form.get("format")).toBe("basic");
    expect(form.get("description")).toBe("orders");
  });

  it("sends a batch as JSON with the version header it was configured with", async () => {
    await service.close();
    service = mockService({ apiVersion: "2025-01-15" });
    service.pool.intercept({ path: BATCHES, method: "POST" }).reply(201, { id: "msba_1", messages: [{}] }, JSON_HEADERS);
    const result = await service.client.sendMessageBatch(batch);
    expect(result).toEqual({ id: "msba_1", messages: [{}] });
    const [call] = service.calls();
    const headers = call.headers as Record<string, string>;
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["x-service-version"]).toBe("2025-01-15");
    expect(JSON.parse(call.body ?? "")).toEqual(batch);
  });

  it("uses the caller's idempotency key, and a new one for each call otherwise", async () => {
    service.pool.intercept({ path: BATCHES, method: "POST" }).reply(200, { id: "msba_1" }).times(3);
    await service.client.sendMessageBatch(batch, { idempotencyKey: "order-42" });
    await service.client.sendMessageBatch(batch);
    await service.client.sendMessageBatch(batch);
    const keys = service.calls().map((call) => (call.headers as Record<string, string>)["idempotency-key"]);
    expect(keys[0]).toBe("order-42");
    expect(keys[1]).not.toBe(keys[2]);
  });

  it("puts a base URL path in front of the API path", async () => {
    await service.close();
    service = mockService({ baseUrl: `${ORIGIN}/prefix/` });
    service.pool.intercept({ path: `/prefix${BATCHES}`, method: "POST" }).reply(200, {});
    await service.client.sendMessageBatch(batch);
    expect(service.calls()[0].path).toBe(`/prefix${BATCHES}`);
  });
});

describe("retries", () => {
  it("retries 503, 500 and 408 with the same idempotency key, then succeeds", async () => {
    service = mockService();
    service.pool.intercept({ path: BATCHES, method: "POST" }).reply(503, { title: "unavailable" }, PROBLEM_HEADERS);
    service.pool.intercept({ path: BATCHES, method: "POST" }).reply(500, "oops");
    service.pool.intercept({ path: BATCHES, method: "POST" }).reply(408, "");
    service.pool.intercept({ path: BATCHES, method: "POST" }).reply(200, { id: "msba_ok" });
    const result = await service.client.sendMessageBatch(batch);
    expect(result.id).toBe("msba_ok");
    const keys = new Set(service.calls().map((call) => (call.headers as Record<string, string>)["idempotency-key"]));
    expect(service.calls()).toHaveLength(4);
    expect(keys.size).toBe(1);
  });

  it("gives up after maxRetries retries and throws the last ServerError", async () => {
    service = mockService({ maxRetries: 2 });
    service.pool.intercept({ path: BATCHES, method: "POST" }).reply(502, "").times(2);
    service.pool
      .intercept({ path: BATCHES, method: "POST" })
      .reply(503, { title: "unavailable", detail: "try later" }, { headers: { ...PROBLEM_HEADERS.headers, "x-request-id": "req_last" } });
    const error = await rejection(service.client.sendMessageBatch(batch));
    expect(isServerError(error)).toBe(true);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(503);
    expect((error as ServerError).requestId).toBe("req_last");
    expect(error.message).toMatch(/POST \/v1\/message_batches failed with HTTP 503 \(unavailable\)/);
    expect(service.calls()).toHaveLength(3);
  });

  it("does not retry with maxRetries 0", async () => {
    service = mockService({ maxRetries: 0 });
    service.pool.intercept({ path: BATCHES, method: "POST" }).reply(503, "").persist();
    await expect(service.client.sendMessageBatch(batch)).rejects.toBeInstanceOf(ServerError);
    expect(service.calls()).toHaveLength(1);
  });

  it("retries 429 after its Retry-After and reports it when retries run out", async () => {
    service = mockService({ maxRetries: 1 });
    service.pool
      .intercept({ path: BATCHES, method: "POST" })
      .reply(429, { title: "rate_limited" }, { headers: { "retry-after": "1" } })
      .times(2);
    const error = await rejection(service.client.sendMessageBatch(batch));
    expect(isRateLimitError(error)).toBe(true);
    expect((error as RateLimitError).retryAfterMs).toBe(1000);
    expect(service.calls()).toHaveLength(2);
  });

  it.each([
    [400, InvalidRequestError],
    [401, AuthenticationError],
    [403, PermissionError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, InvalidRequestError],
  ])("never retries %i and maps it to its class", async (status, errorClass) => {
    service = mockService();
    service.pool.intercept({ path: BATCHES, method: "POST" }).reply(status, { title: "code", status }, PROBLEM_HEADERS).persist();
    const error = await rejection(service.client.sendMessageBatch(batch));
    expect(error).toBeInstanceOf(errorClass);
    expect(isApiError(error)).toBe(true);
    expect(service.calls()).toHaveLength(1);
  });

  it("retries 409 idempotency_key_in_use (the key's first request still in progress) with the same key", async () => {
    // The emulator's handlers finish before the next request is read, so it cannot produce this race.
    service = mockService();
    service.pool
      .intercept({ path: BATCHES, method: "POST" })
      .reply(409, { title: "idempotency_key_in_use", status: 409 }, { headers: { ...PROBLEM_HEADERS.headers, "retry-after": "1" } })
      .times(2);
    service.pool.intercept({ path: BATCHES, method: "POST" }).reply(200, { id: "msba_after_in_use" });
    await expect(service.client.sendMessageBatch(batch, { idempotencyKey: "k-in-use" })).resolves.toEqual({ id: "msba_after_in_use" });
    expect(service.calls().map((call) => (call.headers as Record<string, string>)["idempotency-key"])).toEqual([
      "k-in-use",
      "k-in-use",
      "k-in-use",
    ]);
  });

  it("waits the Retry-After of a 409 idempotency_key_in_use rather than its backoff", async () => {
    // Backoff alone would wait up to an hour; the (capped) Retry-After is 5 ms.
    service = mockService({ retryBaseDelayMs: 3_600_000, retryMaxDelayMs: 3_600_000, maxRetryAfterMs: 5 });
    service.pool
      .intercept({ path: BATCHES, method: "POST" })
      .reply(409, { title: "idempotency_key_in_use" }, { headers: { ...PROBLEM_HEADERS.headers, "retry-after": "1" } });
    service.pool.intercept({ path: BATCHES, method: "POST" }).reply(200, { id: "msba_waited" });
    await expect(service.client.sendMessageBatch(batch)).resolves.toEqual({ id: "msba_waited" });
    expect(service.calls()).toHaveLength(2);
  }, 10_000);

  it("reports a 409 idempotency_key_in_use as ConflictError once retries run out", async () => {
    service = mockService({ maxRetries: 1 });
    service.pool
      .intercept({ path: BATCHES, method: "POST" })
      .reply(409, { title: "idempotency_key_in_use" }, { headers: { ...PROBLEM_HEADERS.headers, "retry-after": "1" } })
      .persist();
    const error = await rejection(service.client.sendMessageBatch(batch));
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).problem?.title).toBe("idempotency_key_in_use");
    expect(service.calls()).toHaveLength(2);
  });

  it.each(["conflict", "idempotency_key_reused", undefined])("does not retry a 409 titled %p", async (title) => {
    service = mockService();
    service.pool
      .intercept({ path: BATCHES, method: "POST" })
      .reply(409, title === undefined ? "" : { title }, { headers: { ...PROBLEM_HEADERS.headers, "retry-after": "1" } })
      .persist();
    await expect(service.client.sendMessageBatch(batch)).rejects.toBeInstanceOf(ConflictError);
    expect(service.calls()).toHaveLength(1);
  });

  it("retries a reset connection and succeeds", async () => {
    service = mockService();
    service.pool
      .intercept({ path: BATCHES, method: "POST" })
      .replyWithError(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }));
    service.pool
      .intercept({ path: BATCHES, method: "POST" })
      .replyWithError(Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }));
    service.pool.intercept({ path: BATCHES, method: "POST" }).reply(200, { id: "msba_after_reset" });
    await expect(service.client.sendMessageBatch(batch)).resolves.toMatchObject({ id: "msba_after_reset" });
    expect(service.calls()).toHaveLength(3);
  });

  it("throws ConnectionError with the number of attempts when the connection keeps failing", async () => {
    service = mockService({ maxRetries: 2 });
    service.pool
      .intercept({ path: BATCHES, method: "POST" })
      .replyWithError(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }))
      .persist();
    const error = await rejection(service.client.sendMessageBatch(batch));
    expect(isConnectionError(error)).toBe(true);
    expect((error as ConnectionError).attempts).toBe(3);
    expect(error.message).toMatch(/connection failed after 3 attempt\(s\): read ECONNRESET/);
  });

  it("does not retry a failure that is not transient (unknown host)", async () => {
    service = mockService();
    service.pool
      .intercept({ path: BATCHES, method: "POST" })
      .replyWithError(Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" }))
      .persist();
    const error = await rejection(service.client.sendMessageBatch(batch));
    expect(isConnectionError(error)).toBe(true);
    expect((error as ConnectionError).attempts).toBe(1);
  });
});

describe("error bodies", () => {
  beforeEach(() => {
    service = mockService();
  });

  it("surfaces the problem's title, detail, field errors and the request id", async () => {
    service.pool.intercept({ path: BATCHES, method: "POST" }).reply(
      422,
      {
        type: "about:blank",
        title: "invalid_request",
        status: 422,
        detail: "1 field is invalid",
        errors: { "messages[0].tos[0]": ["unknown number"] },
      },
      { headers: { "content-type": "application/problem+json", "x-request-id": "req_123" } },
    );
    const error = (await rejection(service.client.sendMessageBatch(batch))) as InvalidRequestError;
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.status).toBe(422);
    expect(error.method).toBe("POST");
    expect(error.path).toBe(BATCHES);
    expect(error.requestId).toBe("req_123");
    expect(error.problem?.title).toBe("invalid_request");
    expect(error.fieldErrors).toEqual({ "messages[0].tos[0]": ["unknown number"] });
    expect(error.message).toMatch(/1 field is invalid/);
    expect(error.message).toMatch(/messages\[0\]\.tos\[0\]: unknown number/);
  });

  it("drops a body that is not problem details instead of quoting it", async () => {
    service.pool.intercept({ path: BATCHES, method: "POST" }).reply(400, "<html>bad gateway page echoing stuff</html>");
    const error = (await rejection(service.client.sendMessageBatch(batch))) as InvalidRequestError;
    expect(error.problem).toBeUndefined();
    expect(error.message).not.toContain("<html>");
  });
});

describe("responses are parsed where they enter the client", () => {
  beforeEach(() => {
    service = mockService();
  });

  it("accepts any 2xx", async () => {
    service.pool.intercept({ path: ENDPOINTS, method: "POST" }).reply(201, endpointObject());
    await expect(service.client.createWebhookEndpoint({ url: "https://e.com", events: ["a"] })).resolves.toMatchObject({ id: "we_01" });
  });

  it("keeps the id of an endpoint whose secret cannot be read, without quoting the secret", async () => {
    service.pool
      .intercept({ path: ENDPOINTS, method: "POST" })
      .reply(200, endpointObject({ id: "we_half", secret: ["whsec_TOP_SECRET_value"], live: "yes", etag: undefined }), {
        headers: { "x-request-id": "req_9" },
      });
    const error = (await rejection(service.client.createWebhookEndpoint({ url: "https://e.com", events: ["a"] }))) as ResponseSchemaError;
    expect(isResponseSchemaError(error)).toBe(true);
    expect(error.resourceId).toBe("we_half");
    expect(error.requestId).toBe("req_9");
    // A missing etag is allowed; the fields at fault are named.
    expect(Object.keys(error.fieldErrors).sort()).toEqual(["live", "secret"]);
    expect(error.message).toMatch(/returned id we_half/);
    expect(allStrings(error).join("\n")).not.toContain("whsec_TOP_SECRET_value");
    expect(JSON.stringify(error)).not.toContain("whsec_TOP_SECRET_value");
  });

  it("accepts an endpoint answer without non-essential fields, keeping the secret", async () => {
    service.pool
      .intercept({ path: ENDPOINTS, method: "POST" })
      .reply(
        200,
        endpointObject({ id: "we_lean", workspace: undefined, etag: undefined, live: undefined, created: undefined, metadata: null }),
      );
    const endpoint = await service.client.createWebhookEndpoint({ url: "https://e.com", events: ["a"] });
    expect(endpoint.id).toBe("we_lean");
    expect(endpoint.secret).toBe("whsec_TOP_SECRET_value");
    expect(endpoint.workspace).toBeUndefined();
    expect(endpoint.etag).toBeUndefined();
    expect(endpoint.metadata).toBeNull();
    expect(endpoint.url).toBe("https://example.com/hook");
  });

  it("leaves out optional fields it cannot read, naming them, and keeps the id and secret", async () => {
    service.pool
      .intercept({ path: ENDPOINTS, method: "POST" })
      .reply(200, endpointObject({ id: "we_odd", created: 1717200000, live: "yes", metadata: { a: 1 } }));
    const endpoint = await service.client.createWebhookEndpoint({ url: "https://e.com", events: ["a"] });
    expect(endpoint).toMatchObject({ id: "we_odd", secret: "whsec_TOP_SECRET_value", url: "https://example.com/hook" });
    expect(endpoint).not.toHaveProperty("created");
    expect(endpoint).not.toHaveProperty("live");
    expect(endpoint).not.toHaveProperty("metadata");
    expect(Object.keys(unreadableFields(endpoint)).sort()).toEqual(["created", "live", "metadata.a"]);
    expect(JSON.stringify(unreadableFields(endpoint))).not.toContain("whsec_TOP_SECRET_value");
    // Hidden: the answer's JSON is what the schema reads.
    expect(Object.keys(JSON.parse(JSON.stringify(endpoint)))).not.toContain("created");
  });

  it("names no unreadable field in a well-formed answer", async () => {
    service.pool.intercept({ path: ENDPOINTS, method: "POST" }).reply(200, endpointObject());
    expect(unreadableFields(await service.client.createWebhookEndpoint({ url: "https://e.com", events: ["a"] }))).toEqual({});
  });

  it("accepts an endpoint answer with only id and secret", async () => {
    service.pool.intercept({ path: ENDPOINTS, method: "POST" }).reply(200, { id: "we_min", secret: "whsec_min" });
    await expect(service.client.createWebhookEndpoint({ url: "https://e.com", events: ["a"] })).resolves.toEqual({
      id: "we_min",
      secret: "whsec_min",
    });
  });

  it("still fails without a secret, with the id of the endpoint that was created", async () => {
    service.pool
      .intercept({ path: ENDPOINTS, method: "POST" })
      .reply(200, endpointObject({ id: "we_nosecret", secret: undefined, etag: undefined }));
    const error = (await rejection(service.client.createWebhookEndpoint({ url: "https://e.com", events: ["a"] }))) as ResponseSchemaError;
    expect(isResponseSchemaError(error)).toBe(true);
    expect(error).toBeInstanceOf(ResponseSchemaError);
    expect(error.resourceId).toBe("we_nosecret");
    expect(Object.keys(error.fieldErrors)).toEqual(["secret"]);
  });

  it("reports a 2xx body that is not JSON", async () => {
    service.pool.intercept({ path: BATCHES, method: "POST" }).reply(200, "OK");
    const error = (await rejection(service.client.sendMessageBatch(batch))) as ResponseSchemaError;
    expect(isResponseSchemaError(error)).toBe(true);
    expect(error.fieldErrors).toEqual({ "(root)": ["expected a JSON body with HTTP 200"] });
    expect(error.resourceId).toBeUndefined();
  });

  it("takes an empty 2xx batch answer as accepted (the spec does not show the body)", async () => {
    service.pool.intercept({ path: BATCHES, method: "POST" }).reply(202, "");
    await expect(service.client.sendMessageBatch(batch)).resolves.toEqual({});
  });

  it("but not an empty endpoint answer: the endpoint object is needed", async () => {
    service.pool.intercept({ path: ENDPOINTS, method: "POST" }).reply(204, "");
    const error = (await rejection(service.client.createWebhookEndpoint({ url: "https://e.com", events: ["a"] }))) as ResponseSchemaError;
    expect(isResponseSchemaError(error)).toBe(true);
    expect(error.fieldErrors).toEqual({ "(root)": ["expected a JSON body with HTTP 204"] });
  });

  it("keeps unknown fields of a batch result", async () => {
    service.pool.intercept({ path: BATCHES, method: "POST" }).reply(200, { id: "msba_x", accepted: 1 });
    await expect(service.client.sendMessageBatch(batch)).resolves.toEqual({ id: "msba_x", accepted: 1 });
  });
});

describe("the API key never leaks", () => {
  const leaks = (text: string) => text.includes(TEST_KEY) || text.includes(TEST_KEY_BASE64);

  it("a wrong key gives an AuthenticationError that does not carry the key", async () => {
    service = mockService();
    service.pool
      .intercept({ path: ENDPOINTS, method: "POST" })
      .reply(401, { title: "authentication_failed", detail: "invalid API key" }, PROBLEM_HEADERS);
    const error = await rejection(service.client.createWebhookEndpoint({ url: "https://e.com", events: ["a"] }));
    expect(isAuthenticationError(error)).toBe(true);
    expect(leaks(error.message)).toBe(false);
    expect(leaks(String(error.stack))).toBe(false);
    expect(leaks(JSON.stringify(error))).toBe(false);
    expect(leaks(inspect(error, { depth: 10, showHidden: true }))).toBe(false);
    expect(allStrings(error).some(leaks)).toBe(false);
  });

  it("nor do connection errors", async () => {
    service = mockService({ maxRetries: 0 });
    service.pool
      .intercept({ path: BATCHES, method: "POST" })
      .replyWithError(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }));
    const error = await rejection(service.client.sendMessageBatch(batch));
    expect(isConnectionError(error)).toBe(true);
    expect(leaks(inspect(error, { depth: 10, showHidden: true }))).toBe(false);
    expect(allStrings(error).some(leaks)).toBe(false);
  });

  it("nor does the client itself when logged", () => {
    const client = new MessagingClient({ apiKey: TEST_KEY, baseUrl: ORIGIN });
    expect(leaks(inspect(client, { depth: 10, showHidden: true }))).toBe(false);
    expect(leaks(JSON.stringify(client))).toBe(false);
    return client.close();
  });
});

describe("cancellation and closing", () => {
  it("an aborted signal stops the call before any request", async () => {
    service = mockService();
    service.pool.intercept({ path: BATCHES, method: "POST" }).reply(200, {});
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(service.client.sendMessageBatch(batch, { signal: controller.signal })).rejects.toThrow("stop");
    expect(service.calls()).toHaveLength(0);
  });

  it("aborting during the wait between attempts stops the retries", async () => {
    service = mockService({ retryBaseDelayMs: 60_000, retryMaxDelayMs: 60_000 });
    const controller = new AbortController();
    service.pool
      .intercept({ path: BATCHES, method: "POST" })
      .reply(() => {
        setImmediate(() => controller.abort(new Error("caller gave up")));
        return { statusCode: 503, data: "" };
      })
      .persist();
    await expect(service.client.sendMessageBatch(batch, { signal: controller.signal })).rejects.toThrow("caller gave up");
    expect(service.calls()).toHaveLength(1);
  });

  it("close() leaves a dispatcher it was given open, and the closed client refuses new calls", async () => {
    service = mockService();
    service.pool.intercept({ path: BATCHES, method: "POST" }).reply(200, {}).times(2);
    await service.client.close();
    await service.client.close();
    const error = await rejection(service.client.sendMessageBatch(batch));
    expect(isConfigurationError(error)).toBe(true);
    const other = new MessagingClient({ apiKey: TEST_KEY, baseUrl: ORIGIN, dispatcher: service.agent });
    await expect(other.sendMessageBatch(batch)).resolves.toEqual({});
  });
});
