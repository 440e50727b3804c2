import type { IncomingHttpHeaders } from "node:http";
import { MockAgent } from "undici";
import { MessagingClient, type MessagingClientOptions } from "../../client";

/** A test API key; tests check it never shows up in errors. */
export const TEST_KEY = "sk_test_MOCK_4f9a1c2e7b";
export const TEST_KEY_BASE64 = Buffer.from(`${TEST_KEY}:`).toString("base64");
export const ORIGIN = "http://messaging.test";

/** A complete webhook endpoint object as the service returns it. */
export function endpointObject(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "we_01",
    created: "2024-06-01T00:00:00Z",
    updated: "2024-06-01T00:00:00Z",
    format: "basic",
    secret: "whsec_TOP_SECRET_value",
    workspace: "wksp_01",
    live: false,
    etag: '"1"',
    events: ["payment.succeeded"],
    description: null,
    status: "enabled",
    url: "https://example.com/hook",
    metadata: {},
    ...overrides,
  };
}

/** A MockAgent with net connect disabled, call history on, and a client using it with tiny backoff. */
export function mockService(options: Partial<MessagingClientOptions> = {}) {
  const agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  const pool = agent.get(ORIGIN);
  const client = new MessagingClient({
    apiKey: TEST_KEY,
    baseUrl: ORIGIN,
    dispatcher: agent,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 4,
    maxRetryAfterMs: 5,
    ...options,
  });
  let closed = false;
  return {
    agent,
    pool,
    client,
    /** Requests that reached the dispatcher. */
    calls: () => agent.getCallHistory()?.calls() ?? [],
    close: async () => {
      if (closed) return;
      closed = true;
      await client.close();
      await agent.close();
    },
  };
}

/** Reply headers as JSON problem details. */
export const PROBLEM_HEADERS: { headers: IncomingHttpHeaders } = { headers: { "content-type": "application/problem+json" } };
export const JSON_HEADERS: { headers: IncomingHttpHeaders } = { headers: { "content-type": "application/json" } };

/** Every string reachable from a value (own properties, enumerable or not, and causes). */
export function allStrings(value: unknown, seen = new Set<unknown>()): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null || seen.has(value)) return [];
  seen.add(value);
  const out: string[] = [];
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key === "string") out.push(key);
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor && "value" in descriptor) out.push(...allStrings(descriptor.value, seen));
  }
  return out;
}

/** The error a promise rejects with; fails the test if it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the call to fail");
}
