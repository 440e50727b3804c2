import { SignatureVerificationError } from "../../errors/messaging-error";
import type { ParsedEvent } from "../core/event-types";
import { receiveWebhook } from "../core/receive-webhook";
import { resolveReceiverSettings, type ReceiverOptions } from "../core/settings";
import { assertWebRequest, readRequestBody } from "./body";
import { webCryptoHmacProvider } from "./hmac";

/** Options of {@link verifyWebhookRequest}: the receiver options, and the clock. */
export interface VerifyWebhookRequestOptions extends ReceiverOptions {
  /** "Now" in Unix seconds (tests). Default: the system clock. */
  readonly nowSeconds?: number;
}

/**
 * Verifies a webhook delivered as a standard `Request` and resolves to its typed event: for
 * any runtime with Web Crypto (Node ≥ 20, Deno, Bun, Cloudflare Workers, Next.js route
 * handlers). Reads the raw body itself (so nothing may have read it before), checks the
 * signature header (HMAC-SHA256 over `"<t>.<raw body>"`, any of several secrets during a
 * rotation, one HMAC per secret) and the timestamp tolerance, then parses the event, and
 * finally, when a `replayGuard` is given, refuses an event id seen before.
 *
 * To answer the request as well, use `createWebhookRequestHandler`, which maps each outcome
 * to its status.
 *
 * @throws SignatureVerificationError `missing_header`, `malformed_header`,
 *   `no_matching_signature`, `timestamp_out_of_tolerance` (answer 401), or `duplicate_event`
 *   (answer 2xx: the event was processed already).
 * @throws ValidationError when the verified body is not an event (answer 400).
 * @throws BodyTooLargeError for a body over `maxBodyBytes` (answer 413).
 * @throws ConfigurationError for no usable secret, an invalid option (an empty or invalid
 *   `headerName`, …), an argument that is not a `Request`, or a body already read.
 */
export async function verifyWebhookRequest(
  request: Request,
  secretOrSecrets: string | readonly string[],
  options: VerifyWebhookRequestOptions = {},
): Promise<ParsedEvent> {
  assertWebRequest(request, "verifyWebhookRequest");
  const settings = resolveReceiverSettings(secretOrSecrets, options);
  const { payload } = await receiveWebhook(
    request.headers.get(settings.headerName) ?? undefined,
    () => readRequestBody(request, settings.maxBodyBytes, "verifyWebhookRequest"),
    settings,
    webCryptoHmacProvider,
    options.nowSeconds,
  );
  if (settings.replayGuard !== undefined && (await settings.replayGuard.seen(payload.event.id))) {
    throw new SignatureVerificationError(
      "duplicate_event",
      `event ${payload.event.id} was seen before (a replay or a redelivery); it was not processed again`,
    );
  }
  return payload.event;
}
