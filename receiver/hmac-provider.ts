/**
 * How the receiver computes HMAC-SHA256: the one runtime-specific step of verification, as in
 * stripe-node's CryptoProvider and octokit's verifiers. `node:crypto` serves Node
 * (`node-hmac.ts`, synchronous); Web Crypto serves every runtime with `crypto.subtle`
 * (`web-crypto-hmac.ts`, asynchronous). Everything else (header parsing, matching, timestamp,
 * parsing, replay) is shared (`signature-check.ts`, `receive-webhook.ts`).
 */
export interface HmacProvider {
  /**
   * HMAC-SHA256 keyed with `secret` (UTF-8) over the concatenation of `parts`; 32 bytes.
   * Called at most once per secret per request.
   */
  hmacSha256(secret: string, parts: readonly Uint8Array[]): Uint8Array | Promise<Uint8Array>;
}

/** A provider whose result is ready at once (node:crypto), for the synchronous `verifySignature`. */
export interface SyncHmacProvider extends HmacProvider {
  hmacSha256(secret: string, parts: readonly Uint8Array[]): Uint8Array;
}

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
