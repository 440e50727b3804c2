import { SignatureVerificationError } from "../../errors/messaging-error";
import type { ParsedEvent } from "../core/event-types";
import { receiveWebhook } from "../core/receive-webhook";
import { resolveReceiverSettings, type ReceiverOptions } from "../core/settings";
import { assertWebRequest, readRequestBody } from "./body";
import { webCryptoHmacProvider } from "./hmac";

export interface VerifyWebhookRequestOptions extends ReceiverOptions {
  /** "Now" in Unix seconds (tests). Default: the system clock. */
  readonly nowSeconds?: number;
}

/**
 * Verifies a webhook delivered as a standard `Request` (any runtime with Web Crypto) and resolves to its event. Reads the raw body
 * itself, so nothing may have read it before. `createWebhookRequestHandler` also answers the request.
 * @throws SignatureVerificationError: answer 401, or 2xx for `duplicate_event` (processed already).
 * @throws ValidationError (answer 400), BodyTooLargeError (413), ConfigurationError (no usable secret, a body already read).
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
