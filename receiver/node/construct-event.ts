import type { ParsedEvent } from "../core/event-types";
import { parseEvent } from "../core/parse-event";
import { verifySignature, type VerifySignatureOptions } from "./signature";

/**
 * Verifies a webhook request's signature, then parses its body: {@link verifySignature}
 * followed by {@link parseEvent}, in that order, so nothing unauthenticated is parsed.
 *
 * @param rawBody The body exactly as received (not re-serialized JSON).
 * @param header The signature header's value (`req.headers[SIGNATURE_HEADER]`).
 * @param secretOrSecrets The endpoint's signing secret, or several during a rotation.
 * @param options Tolerance (default 300 s) and clock, as for {@link verifySignature}.
 * @throws SignatureVerificationError when the signature does not verify (see `reason`).
 * @throws ValidationError when the body is not an event (`fieldErrors` names the field).
 * @throws ConfigurationError when no usable secret or an invalid option is given.
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
