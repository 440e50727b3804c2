import http from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { EmulatorClient, startEmulator, type Emulator, type EmulatorOptions } from "../../emulator";
import { EmulatedWebhookEndpointSchema, type EmulatedWebhookEndpoint } from "../../emulator/records";

/** The version date the spec's examples use. */
export const VERSION = "2024-06-01";

/** An `Authorization` header for HTTP Basic with the key as username and an empty password. */
export function basicAuth(key: string): string {
  return `Basic ${Buffer.from(`${key}:`).toString("base64")}`;
}

export interface CallOptions {
  method?: string;
  /** Authorization header; null sends none. Default: the emulator's key. */
  auth?: string | null;
  /** X-Service-Version; null sends none. Default {@link VERSION}. */
  version?: string | null;
  /** Sent as JSON with `Content-Type: application/json`. */
  json?: unknown;
  /** Sent with `Content-Type: application/x-www-form-urlencoded`. */
  form?: URLSearchParams | string;
  /** Raw body (set the content type yourself in `headers`). */
  body?: string | Buffer;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON (undefined when it is not): tests read into it freely. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** One HTTP request to the emulator with undici (not the package's client). */
export async function call(emulator: Emulator, path: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = {};
  const auth = options.auth === undefined ? basicAuth(emulator.apiKey) : options.auth;
  if (auth !== null) headers.authorization = auth;
  const version = options.version === undefined ? VERSION : options.version;
  if (version !== null) headers["x-service-version"] = version;
  let body: string | Buffer | undefined = options.body;
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.json);
  }
  if (options.form !== undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = options.form.toString();
  }
  Object.assign(headers, options.headers);
  const method = options.method ?? (body === undefined ? "GET" : "POST");
  const response = await request(`${emulator.url}${path}`, { method: method as "GET", headers, body });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, headers: response.headers, text, json };
}

/**
 * A new emulator for each test of the block (or file) this is called in, closed after the test,
 * passed or not. The value returned stands for the current test's emulator: use it inside tests.
 */
export function emulatorForEachTest(options?: EmulatorOptions): Emulator {
  return emulatorBetween(beforeEach, afterEach, options);
}

/**
 * One emulator for all the tests of the block (or file) this is called in, closed after the
 * last, passed or not. The value returned stands for it: use it inside tests.
 */
export function emulatorForAllTests(options?: EmulatorOptions): Emulator {
  return emulatorBetween(beforeAll, afterAll, options);
}

/** An emulator started in the hook `start`, closed in `stop`; the value returned forwards every field to the one running. */
function emulatorBetween(start: jest.Lifecycle, stop: jest.Lifecycle, options?: EmulatorOptions): Emulator {
  let running: Emulator | undefined;
  start(async () => {
    running = await startEmulator(options);
  });
  stop(() => running?.close());
  return new Proxy({} as Emulator, {
    get(_, field) {
      if (!running) throw new Error("the emulator starts with the tests: use it inside a test");
      const value: unknown = Reflect.get(running, field);
      return typeof value === "function" ? value.bind(running) : value;
    },
  });
}

/**
 * Runs `use` with a typed client of the emulator's own routes (`EmulatorClient`), closed
 * afterwards even when `use` fails. For tests of what the emulator did; tests of the wire
 * itself (statuses, headers, hostile bytes) use {@link call}.
 */
export async function withEmulatorClient<T>(emulator: Emulator, use: (client: EmulatorClient) => Promise<T>): Promise<T> {
  const client = new EmulatorClient({ baseUrl: emulator.url, apiKey: emulator.apiKey });
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

/** The recipient of each message of `batches`, in order (the tests send each message to one recipient). */
export function recipientsOf(batches: ReadonlyArray<{ messages: ReadonlyArray<{ tos: string[] }> }>): string[] {
  return batches.flatMap((batch) => batch.messages.map((message) => message.tos[0]));
}

/**
 * How the expected recipients were accepted across `batches` (one recipient a message): `accepted` distinct recipients,
 * `duplicates` accepted more than once, `lost` never accepted.
 */
export function acceptanceOf(
  batches: ReadonlyArray<{ messages: ReadonlyArray<{ tos: string[] }> }>,
  expected: readonly string[],
): { accepted: number; duplicates: number; lost: number } {
  const counts = new Map<string, number>();
  for (const to of recipientsOf(batches)) counts.set(to, (counts.get(to) ?? 0) + 1);
  return {
    accepted: counts.size,
    duplicates: [...counts.values()].filter((count) => count > 1).length,
    lost: expected.filter((to) => !counts.has(to)).length,
  };
}

/** A valid endpoint form. */
export function endpointForm(overrides: Record<string, string | string[]> = {}): URLSearchParams {
  const fields: Record<string, string | string[]> = {
    url: "https://example.com/hooks",
    format: "basic",
    "events[]": ["payment.succeeded"],
    ...overrides,
  };
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
  }
  return form;
}

/** A valid message. */
export function message(index = 0): { tos: string[]; body: string } {
  return { tos: [`+2547${String(10000000 + index).padStart(8, "0")}`], body: `hello ${index}` };
}

/** What a receiver got. */
export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  path: string;
}

/**
 * A local webhook receiver on 127.0.0.1 port 0 that records every request. `status` is the
 * answer, or a function of the request's position (0 for the first) giving it; `"hang"`
 * never answers (until the receiver closes).
 */
export async function startReceiver(
  status: number | ((index: number) => number | "hang") = 200,
): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const index = received.length;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), path: req.url ?? "" });
      const answer = typeof status === "function" ? status(index) : status;
      if (answer === "hang") return;
      res.writeHead(answer, { "content-type": "text/plain" });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * An endpoint record as the emulator's store holds it, for tests of the store and the
 * delivery queue: the values given, every other field a plausible one (an optional create
 * field null, as the emulator records it when not given), checked against the record's schema.
 */
export function recordedEndpoint(fields: Partial<EmulatedWebhookEndpoint> & Pick<EmulatedWebhookEndpoint, "id">): EmulatedWebhookEndpoint {
  const unset = Object.keys(EmulatedWebhookEndpointSchema.shape).filter(
    (key) => EmulatedWebhookEndpointSchema.shape[key as keyof EmulatedWebhookEndpoint].safeParse(null).success,
  );
  return EmulatedWebhookEndpointSchema.parse({
    ...Object.fromEntries(unset.map((key) => [key, null])),
    created: "2026-01-01T00:00:00.000Z",
    updated: "2026-01-01T00:00:00.000Z",
    format: "basic",
    secret: `whsec_${fields.id}`,
    workspace: "wksp_1",
    live: false,
    etag: '"1"',
    events: ["payment.succeeded"],
    status: "enabled",
    url: `https://example.com/${fields.id}`,
    metadata: {},
    ...fields,
  });
}
