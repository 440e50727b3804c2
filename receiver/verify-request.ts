import { ConfigurationError, SignatureVerificationError } from "../errors/messaging-error";
import { SIGNATURE_HEADER } from "../schemas/http";
import type { ParsedEvent } from "./event-types";
import { parseWebhookPayload } from "./parse-event";
import { BodyTooLargeError } from "./raw-body";
import type { ReplayGuard } from "./replay-guard";
import { parseSignatureHeader } from "./signature-header";
import { checkTimestamp, noMatchingSignature, normalizeSecrets, nowInSeconds, resolveTolerance } from "./signature-options";

/** Default cap on a webhook body: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Options of {@link verifyWebhookRequest}. */
export interface VerifyWebhookRequestOptions {
  /** Signature timestamp tolerance in seconds. Default 300 (see `verifySignature`). */
  readonly toleranceSeconds?: number;
  /** "Now" in Unix seconds (tests). Default: the system clock. */
  readonly nowSeconds?: number;
  /** Header carrying the signature, any case. Default `x-service-signature`. */
  readonly headerName?: string;
  /** Largest accepted body, in bytes. Default {@link DEFAULT_MAX_BODY_BYTES} (1 MiB). */
  readonly maxBodyBytes?: number;
  /**
   * Rejects an event whose id it has seen (`duplicate_event`): the way to process each event
   * once, against replays within the tolerance window and the service's redeliveries. Pass a
   * `MemoryReplayGuard` (one process) or your own store. When your processing then fails,
   * call `replayGuard.forget(event.id)` so the redelivery is processed.
   */
  readonly replayGuard?: ReplayGuard;
}

const encoder = new TextEncoder();

// globalThis.crypto.subtle: Node ≥ 20, Deno, Bun, Cloudflare Workers, browsers, Next.js routes.
type Subtle = typeof globalThis.crypto.subtle;
function subtle(): Subtle {
  const s = (globalThis as { crypto?: { subtle?: Subtle } }).crypto?.subtle;
  if (s === undefined)
    throw new ConfigurationError("verifyWebhookRequest needs Web Crypto (globalThis.crypto.subtle), which this runtime lacks");
  return s;
}

function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

// Reads the body as bytes, stopping as soon as it is over the cap.
async function readBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length"));
  const tooLarge = () => new BodyTooLargeError(maxBytes);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/**
 * Verifies a webhook delivered as a standard `Request` and resolves to its typed event: for
 * any runtime with Web Crypto (Node ≥ 20, Deno, Bun, Cloudflare Workers, Next.js route
 * handlers). Reads the raw body itself (so nothing may have parsed it before), checks the
 * signature header (HMAC-SHA256 over `"<t>.<raw body>"`, any of several secrets during a
 * rotation) and the timestamp tolerance, then parses the event, and finally, when a
 * `replayGuard` is given, refuses an event id seen before.
 *
 * @throws SignatureVerificationError `missing_header`, `malformed_header`,
 *   `no_matching_signature`, `timestamp_out_of_tolerance` (answer 401), or `duplicate_event`
 *   (answer 2xx: the event was processed already).
 * @throws ValidationError when the verified body is not an event (answer 400).
 * @throws BodyTooLargeError for a body over `maxBodyBytes` (answer 413).
 * @throws ConfigurationError for no usable secret or an invalid option.
 */
export async function verifyWebhookRequest(
  request: Request,
  secretOrSecrets: string | readonly string[],
  options: VerifyWebhookRequestOptions = {},
): Promise<ParsedEvent> {
  const secrets = normalizeSecrets(secretOrSecrets);
  const tolerance = resolveTolerance(options.toleranceSeconds);
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0)
    throw new ConfigurationError("maxBodyBytes must be a positive whole number of bytes");
  const now = options.nowSeconds ?? nowInSeconds();

  const { timestamp, signatures } = parseSignatureHeader(request.headers.get(options.headerName ?? SIGNATURE_HEADER) ?? undefined);
  const body = await readBody(request, maxBytes);
  const prefix = encoder.encode(`${timestamp}.`);
  const signed = new Uint8Array(prefix.byteLength + body.byteLength);
  signed.set(prefix, 0);
  signed.set(body, prefix.byteLength);

  const crypto = subtle();
  let matched = false;
  for (const secret of secrets) {
    const key = await crypto.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
    // subtle.verify compares in constant time.
    for (const hex of signatures) {
      if (await crypto.verify("HMAC", key, hexToBytes(hex), signed)) matched = true;
    }
    if (matched) break;
  }
  if (!matched) {
    throw noMatchingSignature(signatures.length, secrets.length);
  }
  checkTimestamp(timestamp, now, tolerance);

  const { event } = parseWebhookPayload(body);
  if (options.replayGuard !== undefined && (await options.replayGuard.seen(event.id))) {
    throw new SignatureVerificationError(
      "duplicate_event",
      `event ${event.id} was seen before (a replay or a redelivery); it was not processed again`,
    );
  }
  return event;
}
