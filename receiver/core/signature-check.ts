import { ConfigurationError, SignatureVerificationError } from "../../errors/messaging-error";
import { constantTimeEqual, SignedMessage, type HmacProvider, type SyncHmacProvider } from "./hmac";
import type { SignatureHeader } from "./signature-header";

/** What a successful verification learned. */
export interface VerifiedSignature {
  /** The signed timestamp (`t=`), in Unix seconds. */
  readonly timestamp: number;
  /** The index of the secret that matched: during a rotation, a match on the old secret says the sender has not switched yet. */
  readonly secretIndex: number;
}

export interface SignatureInput {
  /** Exactly as received; a string is taken as its UTF-8 bytes. */
  readonly body: string | Uint8Array;
  readonly header: SignatureHeader;
  readonly secrets: readonly string[];
  readonly toleranceSeconds: number;
  readonly nowSeconds: number;
}

const encoder = new TextEncoder();

function signedMessage(timestamp: number, body: string | Uint8Array): SignedMessage {
  return new SignedMessage(timestamp, typeof body === "string" ? encoder.encode(body) : body);
}

// Char-code arithmetic rather than parseInt of slices: a forged header's many values are decoded on every request.
function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
  return bytes;
}

function nibble(code: number): number {
  return code <= 57 ? code - 48 : code - 87;
}

// No early exit between signatures either.
function matchesAny(received: readonly Uint8Array[], digest: Uint8Array): boolean {
  let matched = false;
  for (const signature of received) matched = constantTimeEqual(signature, digest) || matched;
  return matched;
}

/** One HMAC per secret, whatever the number of entries; the signature is checked before the timestamp. */
export function checkSignature(input: SignatureInput, provider: SyncHmacProvider): VerifiedSignature {
  const { received, message } = prepare(input);
  return conclude(
    input,
    input.secrets.findIndex((secret) => matchesAny(received, provider.hmacSha256(secret, message))),
  );
}

export async function checkSignatureAsync(input: SignatureInput, provider: HmacProvider): Promise<VerifiedSignature> {
  const { received, message } = prepare(input);
  for (const [index, secret] of input.secrets.entries()) {
    if (matchesAny(received, await provider.hmacSha256(secret, message))) return conclude(input, index);
  }
  return conclude(input, -1);
}

function prepare(input: SignatureInput): { received: Uint8Array[]; message: SignedMessage } {
  return { received: input.header.signatures.map(hexToBytes), message: signedMessage(input.header.timestamp, input.body) };
}

function conclude(input: SignatureInput, secretIndex: number): VerifiedSignature {
  const { timestamp, signatures } = input.header;
  if (secretIndex < 0) throw noMatchingSignature(signatures.length, input.secrets.length);
  checkTimestamp(timestamp, input.nowSeconds, input.toleranceSeconds);
  return { timestamp, secretIndex };
}

export function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

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

function noMatchingSignature(signatureCount: number, secretCount: number): SignatureVerificationError {
  return new SignatureVerificationError(
    "no_matching_signature",
    `none of the ${signatureCount} sha256 signature(s) in the header matches the body signed with ` +
      `the ${secretCount} configured secret(s); check that the secret is this endpoint's and that ` +
      "the raw body is verified exactly as received (before any JSON parsing)",
  );
}
