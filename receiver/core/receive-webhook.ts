import type { HmacProvider } from "./hmac";
import { parseWebhookPayload, type ParsedPayload } from "./parse-event";
import type { ReceiverSettings } from "./settings";
import { checkSignatureAsync, nowInSeconds, type VerifiedSignature } from "./signature-check";
import { parseSignatureHeader } from "./signature-header";

export interface Receipt {
  readonly signature: VerifiedSignature;
  readonly payload: ParsedPayload;
}

/**
 * The receiver core of every entry point. A request without a usable signature header is refused before its body is read, and
 * nothing unauthenticated is parsed. The caller asks the replay guard next.
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
