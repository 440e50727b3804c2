import { randomUUID } from "node:crypto";
import { z } from "zod";

/** Longest idempotency key the client sends, in characters. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * An `Idempotency-Key` header value: 1–255 visible ASCII characters (no spaces), so it
 * travels unchanged in a header.
 */
export const IdempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]+$/, { error: "expected visible ASCII characters without spaces" })
  .max(MAX_IDEMPOTENCY_KEY_LENGTH, { error: `expected at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters` });

// Room for '-' and a chunk index after the prefix, within the key length.
const MAX_PREFIX_LENGTH = MAX_IDEMPOTENCY_KEY_LENGTH - 12;

/** A prefix of chunk keys (see {@link chunkIdempotencyKey}): like a key, at most 243 characters. */
export const IdempotencyKeyPrefix = z
  .string()
  .regex(/^[\x21-\x7e]+$/, { error: "expected visible ASCII characters without spaces" })
  .max(MAX_PREFIX_LENGTH, { error: `expected at most ${MAX_PREFIX_LENGTH} characters` });

/** A fresh key for one logical call (a random UUID); it is reused on every retry of that call. */
export function newIdempotencyKey(): string {
  return randomUUID();
}

/** The key of chunk `index` of a chunked send: `${prefix}-${index}`, the same on every re-run. */
export function chunkIdempotencyKey(prefix: string, index: number): string {
  return `${prefix}-${index}`;
}
