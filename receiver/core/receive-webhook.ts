import type { HmacProvider } from "./hmac";
import { parseWebhookPayload, type ParsedPayload } from "./parse-event";
import type { ReceiverSettings } from "./settings";
import { checkSignatureAsync, nowInSeconds, type VerifiedSignature } from "./signature-check";
import { parseSignatureHeader } from "./signature-header";

/** What {@link receiveWebhook} established about one delivery. */
export interface Receipt {
  /** The signed timestamp and which secret matched. */
  readonly signature: VerifiedSignature;
  /** The event, the format it came in and, for CloudEvents, the envelope's attributes. */
  readonly payload: ParsedPayload;
}

/**
 * The receiver core, shared by every entry point: parse the signature header (a request
 * without a usable one is refused before its body is read), read the body, verify the
 * signature over the raw bytes, then parse the event (nothing unauthenticated is parsed).
 * The replay guard is asked next, by the caller: the handlers claim the event id for the
 * time `onEvent` runs (`delivery-handler.ts`), `verifyWebhookRequest` asks `seen`. Only
 * reading the body and writing the answer differ between Node and Web; they are the
 * adapters' (`node/`, `web/`).
 *
 * @param header The signature header's value(s), as the runtime gives them.
 * @param readBody Reads the raw body (capped at `settings.maxBodyBytes`).
 * @param nowSeconds "Now" in Unix seconds. Default: the system clock.
 * @throws SignatureVerificationError (401), ValidationError (400), ConfigurationError.
 */
export async function receiveWebhook<Body extends Uint8Array>(
  header: string | readonly string[] | undefined,
  readBody: () => Promise<Body>,
  settings: ReceiverSettings,
  provider: HmacProvider,
  nowSeconds: number = nowInSeconds(),
): Promise<Receipt & { readonly rawBody: Body }> {
  const parsedHeader = parseSignatureHeader(header);
  const body = await readBody();
  const signature = await checkSignatureAsync(
    { body, header: parsedHeader, secrets: settings.secrets, toleranceSeconds: settings.toleranceSeconds, nowSeconds },
    provider,
  );
  const payload = parseWebhookPayload(body);
  return { signature, payload, rawBody: body };
}
