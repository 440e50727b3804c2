/** HMAC-SHA256: the one runtime-specific step of verification (as stripe-node's CryptoProvider). */
export interface HmacProvider {
  /** Called at most once per secret per request, always with the request's one {@link SignedMessage}. */
  hmacSha256(secret: string, message: SignedMessage): Uint8Array | Promise<Uint8Array>;
}

/** A provider whose result is ready at once (node:crypto), for the synchronous `verifySignature`. */
export interface SyncHmacProvider extends HmacProvider {
  hmacSha256(secret: string, message: SignedMessage): Uint8Array;
}

/**
 * What is signed, `"<t>.<body>"`, built once per request. The body is never copied or decoded; Web Crypto's one buffer is copied
 * once per request, so a forged request (one HMAC per secret) costs no more copies than an honest one.
 */
export class SignedMessage {
  readonly parts: readonly [Uint8Array, Uint8Array];
  private joined: Uint8Array | undefined;

  constructor(timestamp: number, body: Uint8Array) {
    this.parts = [encoder.encode(`${timestamp}.`), body];
  }

  contiguous(): Uint8Array {
    if (this.joined === undefined) {
      const [prefix, body] = this.parts;
      this.joined = new Uint8Array(prefix.byteLength + body.byteLength);
      this.joined.set(prefix, 0);
      this.joined.set(body, prefix.byteLength);
    }
    return this.joined;
  }
}

const encoder = new TextEncoder();

/** Time depends on length only: an early exit would leak how much of a signature is right. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  let difference = 0;
  for (let i = 0; i < a.byteLength; i++) difference |= a[i] ^ b[i];
  return difference === 0;
}
