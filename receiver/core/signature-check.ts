import { ConfigurationError, SignatureVerificationError } from "../../errors/messaging-error";
import { constantTimeEqual, SignedMessage, type HmacProvider, type SyncHmacProvider } from "./hmac";
import type { SignatureHeader } from "./signature-header";

// The verification every entry point shares (Node's `verifySignature`, Web's
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
  /** Non-empty secrets (see `normalizeSecrets` in `settings.ts`). */
  readonly secrets: readonly string[];
  /** Tolerance in seconds (see `resolveTolerance` in `settings.ts`). */
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
  const { received, message } = prepare(input);
  return conclude(
    input,
    input.secrets.findIndex((secret) => matchesAny(received, provider.hmacSha256(secret, message))),
  );
}

/** {@link checkSignature} with any provider (Web Crypto is asynchronous). */
export async function checkSignatureAsync(input: SignatureInput, provider: HmacProvider): Promise<VerifiedSignature> {
  const { received, message } = prepare(input);
  for (const [index, secret] of input.secrets.entries()) {
    if (matchesAny(received, await provider.hmacSha256(secret, message))) return conclude(input, index);
  }
  return conclude(input, -1);
}

// What every secret's HMAC is compared with, decoded once per request.
function prepare(input: SignatureInput): { received: Uint8Array[]; message: SignedMessage } {
  return { received: input.header.signatures.map(hexToBytes), message: signedMessage(input.header.timestamp, input.body) };
}

// The outcome once the secrets were tried: `secretIndex` is the one that matched, or -1.
function conclude(input: SignatureInput, secretIndex: number): VerifiedSignature {
  const { timestamp, signatures } = input.header;
  if (secretIndex < 0) throw noMatchingSignature(signatures.length, input.secrets.length);
  checkTimestamp(timestamp, input.nowSeconds, input.toleranceSeconds);
  return { timestamp, secretIndex };
}

/** Now, in whole Unix seconds. */
export function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Throws `timestamp_out_of_tolerance` when `timestamp` is further than `tolerance` seconds from `now`. */
function checkTimestamp(timestamp: number, now: number, tolerance: number): void {
  if (!Number.isFinite(now)) throw new ConfigurationError("nowSeconds must be a finite number of Unix seconds");
  const age = now - timestamp;
  if (Math.abs(age) > tolerance) {
    const when = age > 0 ? `${age} s in the past` : `${-age} s in the future`;
    throw new SignatureVerificationError(
      "timestamp_out_of_tolerance",
      `the signature timestamp t=${timestamp} is ${when}, beyond the ${tolerance} s tolerance ` +
        "(a replayed request, or the receiver's clock is off)",
    );
  }
}

/** The `no_matching_signature` error: says how many signatures and secrets were tried, and what to check. */
function noMatchingSignature(signatureCount: number, secretCount: number): SignatureVerificationError {
  return new SignatureVerificationError(
    "no_matching_signature",
    `none of the ${signatureCount} sha256 signature(s) in the header matches the body signed with ` +
      `the ${secretCount} configured secret(s); check that the secret is this endpoint's and that ` +
      "the raw body is verified exactly as received (before any JSON parsing)",
  );
}
