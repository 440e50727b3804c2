/**
 * How the receiver computes HMAC-SHA256: the one runtime-specific step of verification, as in
 * stripe-node's CryptoProvider and octokit's verifiers. `node:crypto` serves Node
 * (`node/hmac.ts`, synchronous); Web Crypto serves every runtime with `crypto.subtle`
 * (`web/hmac.ts`, asynchronous). Everything else (header parsing, matching, timestamp,
 * parsing, replay) is shared, in `core/`.
 */
export interface HmacProvider {
  /**
   * HMAC-SHA256 keyed with `secret` (UTF-8) over `message`; 32 bytes. Called at most once
   * per secret per request, always with the request's one {@link SignedMessage}.
   */
  hmacSha256(secret: string, message: SignedMessage): Uint8Array | Promise<Uint8Array>;
}

/** A provider whose result is ready at once (node:crypto), for the synchronous `verifySignature`. */
export interface SyncHmacProvider extends HmacProvider {
  hmacSha256(secret: string, message: SignedMessage): Uint8Array;
}

/**
 * What is signed, `"<t>.<body>"`, built once per request and given to the HMAC of every
 * secret. The body is held as received, never copied or decoded: node:crypto hashes the
 * parts one after the other; Web Crypto needs one buffer, which {@link contiguous} copies
 * once per request, so that a forged request (one HMAC per secret) pays no more copies than
 * an honest one.
 */
export class SignedMessage {
  /** The `"<t>."` prefix, then the body itself. */
  readonly parts: readonly [Uint8Array, Uint8Array];
  private joined: Uint8Array | undefined;

  constructor(timestamp: number, body: Uint8Array) {
    this.parts = [encoder.encode(`${timestamp}.`), body];
  }

  /** The message as one buffer: copied on the first call, the same buffer afterwards. */
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

/**
 * Compares two byte strings in time that depends on their length only, not on where they
 * differ (a signature compared byte by byte with an early exit leaks how much of it is right).
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  let difference = 0;
  for (let i = 0; i < a.byteLength; i++) difference |= a[i] ^ b[i];
  return difference === 0;
}
