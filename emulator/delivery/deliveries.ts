import http from "node:http";
import https from "node:https";
import { SIGNATURE_HEADER } from "../../schemas/http";
import type { EventPayload } from "./events";
import { signatureHeader } from "./signature";
import type { EmulatedWebhookEndpoint } from "../records";

/** How long one delivery may take, in milliseconds, before it is recorded as timed out. */
export const DELIVERY_TIMEOUT_MS = 5000;

/** Options of {@link attemptDelivery}. */
export interface DeliverOptions {
  /** Per-delivery time limit in milliseconds. Default {@link DELIVERY_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /** Aborts the delivery (the emulator closing). */
  readonly signal?: AbortSignal;
}

/**
 * Most bytes of a receiver's answer kept with each attempt: 4 KiB, enough for an error
 * message or a problem-details body. The rest is read and dropped (and counted in
 * `responseBytes`); what is kept counts in the emulator's byte budget with the attempt.
 */
export const RESPONSE_BODY_MAX_BYTES = 4 * 1024;

/** What the receiver answered: its body's first {@link RESPONSE_BODY_MAX_BYTES} as text, and its size. */
export interface ResponseBody {
  /** The first bytes, decoded as UTF-8 (bytes that are not become U+FFFD; a character cut at the limit is left out). */
  readonly text: string;
  /** Bytes of the whole body, read to its end (or until the attempt ended). */
  readonly bytes: number;
}

interface PostResult {
  readonly status: number | null;
  readonly error?: string;
  readonly response?: ResponseBody;
}

// Keeps the first RESPONSE_BODY_MAX_BYTES of a response, counts the rest.
class ResponseSample {
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  bytes = 0;

  add(chunk: Buffer): void {
    this.bytes += chunk.length;
    const room = RESPONSE_BODY_MAX_BYTES - this.keptBytes;
    if (room <= 0) return;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.kept.push(part);
    this.keptBytes += part.length;
  }

  body(): ResponseBody {
    // stream: true leaves out a character whose bytes the limit cut.
    const text = new TextDecoder().decode(Buffer.concat(this.kept, this.keptBytes), { stream: this.bytes > this.keptBytes });
    return { text, bytes: this.bytes };
  }
}

// One fresh connection per delivery (agent: false): nothing pooled outlives the emulator.
function post(url: URL, body: string, headers: Record<string, string>, signal: AbortSignal): Promise<PostResult> {
  return new Promise((resolve) => {
    const transport = url.protocol === "https:" ? https : http;
    let request: http.ClientRequest;
    try {
      request = transport.request(url, { method: "POST", headers, agent: false, signal });
    } catch (error) {
      resolve({ status: null, error: error instanceof Error ? error.message : String(error) });
      return;
    }
    request.on("response", (response) => {
      // Read to the end (so the socket can close), keeping the first bytes.
      const sample = new ResponseSample();
      response.on("data", (chunk: Buffer) => sample.add(chunk));
      const done = () => resolve({ status: response.statusCode ?? null, response: sample.body() });
      response.on("end", done);
      response.on("error", done);
    });
    request.on("error", (error: Error & { code?: string }) => {
      resolve({ status: null, error: error.code ? `${error.code}: ${error.message}` : error.message });
    });
    request.end(body);
  });
}

/** The result of one attempt, before it is classified. */
export interface AttemptResult {
  /** The receiver's status, or null when no answer came. */
  readonly status: number | null;
  /** Why no answer came (`ECONNREFUSED: …`, `timed out after 5000 ms`). */
  readonly error?: string;
  /** What the receiver answered, when it answered. */
  readonly response?: ResponseBody;
  /** When the attempt started. */
  readonly attemptedAt: Date;
  /** How long it took, in milliseconds. */
  readonly durationMs: number;
}

/**
 * The headers of an attempt started at `attemptedAt`, in the order sent: the signature's
 * timestamp is that time in whole seconds. Deterministic, so the inspector shows an attempt's
 * headers by calling it again with the attempt's recorded time rather than storing them.
 */
export function deliveryHeaders(secret: string, payload: EventPayload, attemptedAt: Date): Record<string, string> {
  const timestamp = Math.floor(attemptedAt.getTime() / 1000);
  return {
    "Content-Type": payload.contentType,
    "Content-Length": String(Buffer.byteLength(payload.body)),
    "User-Agent": "messaging-emulator",
    Connection: "close",
    [SIGNATURE_HEADER]: signatureHeader(secret, payload.body, timestamp),
  };
}

/**
 * POSTs one payload to one endpoint, signed with the endpoint's secret at the current time
 * (every attempt gets a fresh timestamp, so a retry is never stale to the receiver). Never
 * throws: an unreachable or slow receiver becomes a result with `status: null` and an `error`.
 */
export async function attemptDelivery(
  endpoint: EmulatedWebhookEndpoint,
  payload: EventPayload,
  options: DeliverOptions = {},
): Promise<AttemptResult> {
  const attemptedAt = new Date();
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const headers = deliveryHeaders(endpoint.secret, payload, attemptedAt);
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;

  let result: PostResult;
  try {
    result = await post(new URL(endpoint.url), payload.body, headers, signal);
  } catch (error) {
    result = { status: null, error: error instanceof Error ? error.message : String(error) };
  }
  if (result.status === null && timeout.aborted) result = { status: null, error: `timed out after ${timeoutMs} ms` };
  return { ...result, attemptedAt, durationMs: Math.round((performance.now() - started) * 10) / 10 };
}
