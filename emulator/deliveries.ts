import http from "node:http";
import https from "node:https";
import type { MessagingEvent } from "../schemas";
import { SIGNATURE_HEADER } from "../schemas/http";
import { eventPayload } from "./events";
import { randomId } from "./ids";
import { signatureHeader } from "./signature";
import type { Delivery, RecordedWebhookEndpoint } from "./store";

/** How long one delivery may take, in milliseconds, before it is recorded as timed out. */
export const DELIVERY_TIMEOUT_MS = 5000;

/** Options of {@link deliverEvent}. */
export interface DeliverOptions {
  /** Per-delivery time limit in milliseconds. Default {@link DELIVERY_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /** Aborts the delivery (the emulator closing). */
  readonly signal?: AbortSignal;
}

interface PostResult {
  readonly status: number | null;
  readonly error?: string;
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
      // The receiver's body is not recorded; read it so the socket can close.
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? null }));
      response.on("error", () => resolve({ status: response.statusCode ?? null }));
    });
    request.on("error", (error: Error & { code?: string }) => {
      resolve({ status: null, error: error.code ? `${error.code}: ${error.message}` : error.message });
    });
    request.end(body);
  });
}

/**
 * POSTs one event to one endpoint in the endpoint's format, signed with its secret, and
 * returns the delivery record. Never throws: an unreachable or slow receiver becomes a
 * record with `status: null` and an `error`.
 */
export async function deliverEvent(
  endpoint: RecordedWebhookEndpoint,
  event: MessagingEvent,
  options: DeliverOptions = {},
): Promise<Delivery> {
  const attemptedAt = new Date();
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const payload = eventPayload(event, endpoint.format);
  const timestamp = Math.floor(attemptedAt.getTime() / 1000);
  const headers = {
    "Content-Type": payload.contentType,
    "Content-Length": String(Buffer.byteLength(payload.body)),
    "User-Agent": "messaging-emulator",
    Connection: "close",
    [SIGNATURE_HEADER]: signatureHeader(endpoint.secret, payload.body, timestamp),
  };
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;

  let result: PostResult;
  try {
    result = await post(new URL(endpoint.url), payload.body, headers, signal);
  } catch (error) {
    result = { status: null, error: error instanceof Error ? error.message : String(error) };
  }
  if (result.status === null && timeout.aborted) result = { status: null, error: `timed out after ${timeoutMs} ms` };

  const delivery: Delivery = {
    id: randomId("dlv_"),
    endpointId: endpoint.id,
    eventId: event.id,
    type: event.type ?? "",
    url: endpoint.url,
    format: endpoint.format,
    status: result.status,
    ok: result.status !== null && result.status >= 200 && result.status < 300,
    attemptedAt: attemptedAt.toISOString(),
    ...(result.error !== undefined ? { error: result.error } : {}),
  };
  return delivery;
}
