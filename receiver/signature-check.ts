import { constantTimeEqual, SignedMessage, type HmacProvider, type SyncHmacProvider } from "./hmac-provider";
import type { SignatureHeader } from "./signature-header";
import { checkTimestamp, noMatchingSignature } from "./signature-options";

// The verification both verifiers share (Node's `verifySignature`, Web's
// `verifyWebhookRequest` and the two handlers): only the HMAC provider differs.

/** What a successful verification learned. */
export interface VerifiedSignature {
  /** The signed timestamp (`t=`), in Unix seconds. */
  readonly timestamp: number;
  /**
   * Position, in the secrets given, of the secret that matched (0 for a single secret).
   * During a rotation, a match on the old secret says the sender has not switched yet.
   */
  readonly secretIndex: number;
}

/** What is checked: the body, the header's value, and the checked settings. */
export interface SignatureInput {
  /** The body exactly as received (a string is taken as its UTF-8 bytes). */
  readonly body: string | Uint8Array;
  /** The signature header, parsed (`parseSignatureHeader`: done first, before the body is read). */
  readonly header: SignatureHeader;
  /** Non-empty secrets (see `normalizeSecrets`). */
  readonly secrets: readonly string[];
  /** Tolerance in seconds (see `resolveTolerance`). */
  readonly toleranceSeconds: number;
  /** Now, in Unix seconds. */
  readonly nowSeconds: number;
}

const encoder = new TextEncoder();

// The signed message, built once for every secret's HMAC (the body itself, not a copy).
function signedMessage(timestamp: number, body: string | Uint8Array): SignedMessage {
  return new SignedMessage(timestamp, typeof body === "string" ? encoder.encode(body) : body);
}

// The header's values are checked lower-case hex (`parseSignatureHeader`). Arithmetic on char
// codes rather than parseInt of slices: a forged header may carry MAX_SIGNATURE_ENTRIES values,
// decoded on every request.
function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
  return bytes;
}

// '0'–'9' are 48–57, 'a'–'f' 97–102.
function nibble(code: number): number {
  return code <= 57 ? code - 48 : code - 87;
}

// Every received signature is compared with the digest (no early exit between them either).
function matchesAny(received: readonly Uint8Array[], digest: Uint8Array): boolean {
  let matched = false;
  for (const signature of received) matched = constantTimeEqual(signature, digest) || matched;
  return matched;
}

/**
 * Verifies synchronously (node:crypto). One HMAC per secret, whatever the number of entries
 * (at most `MAX_SIGNATURE_ENTRIES`); the signature is checked before the timestamp, so
 * `timestamp_out_of_tolerance` is reported only for authentic requests.
 * @throws SignatureVerificationError as `verifySignature` documents.
 */
export function checkSignature(input: SignatureInput, provider: SyncHmacProvider): VerifiedSignature {
  const { timestamp, signatures } = input.header;
  const received = signatures.map(hexToBytes);
  const message = signedMessage(timestamp, input.body);
  const secretIndex = input.secrets.findIndex((secret) => matchesAny(received, provider.hmacSha256(secret, message)));
  if (secretIndex < 0) throw noMatchingSignature(signatures.length, input.secrets.length);
  checkTimestamp(timestamp, input.nowSeconds, input.toleranceSeconds);
  return { timestamp, secretIndex };
}

/** {@link checkSignature} with any provider (Web Crypto is asynchronous). */
export async function checkSignatureAsync(input: SignatureInput, provider: HmacProvider): Promise<VerifiedSignature> {
  const { timestamp, signatures } = input.header;
  const received = signatures.map(hexToBytes);
  const message = signedMessage(timestamp, input.body);
  let secretIndex = -1;
  for (const [index, secret] of input.secrets.entries()) {
    if (matchesAny(received, await provider.hmacSha256(secret, message))) {
      secretIndex = index;
      break;
    }
  }
  if (secretIndex < 0) throw noMatchingSignature(signatures.length, input.secrets.length);
  checkTimestamp(timestamp, input.nowSeconds, input.toleranceSeconds);
  return { timestamp, secretIndex };
}
