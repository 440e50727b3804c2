import type { ParsedEvent } from "../core/event-types";
import { parseEvent } from "../core/parse-event";
import { verifySignature, type VerifySignatureOptions } from "./signature";

/**
 * Verifies a webhook request's signature, then parses its body, so nothing unauthenticated is parsed.
 * @param rawBody The body exactly as received (not re-serialized JSON).
 * @param secretOrSecrets The endpoint's signing secret, or several during a rotation.
 * @throws SignatureVerificationError, ValidationError (not an event), ConfigurationError (no usable secret, an invalid option).
 */
export function constructEvent(
  rawBody: string | Buffer,
  header: string | readonly string[] | undefined,
  secretOrSecrets: string | readonly string[],
  options?: VerifySignatureOptions,
): ParsedEvent {
  verifySignature(rawBody, header, secretOrSecrets, options);
  return parseEvent(rawBody);
}
