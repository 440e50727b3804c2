import { z } from "zod";

/**
 * How long the service remembers an idempotency key (ms). The spec does not say; the emulator's default, and what resuming a call
 * under its old key (a send left in flight, a half-made endpoint's create) assumes at least.
 */
export const IDEMPOTENCY_KEY_MEMORY_MS = 24 * 60 * 60 * 1000;

/** Longest idempotency key, in characters (the bound Stripe uses). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** Longest prefix of chunk keys: room is left for `-` and an 11-digit chunk index. */
export const MAX_IDEMPOTENCY_KEY_PREFIX_LENGTH = MAX_IDEMPOTENCY_KEY_LENGTH - 12;

/** Problem title of the 409 while the first request with a key is in progress: transient, retried after `Retry-After`. */
export const IDEMPOTENCY_KEY_IN_USE = "idempotency_key_in_use";

// Visible ASCII without spaces: travels unchanged in a header, whatever the proxy.
const visibleAscii = (maxLength: number) =>
  z
    .string()
    .regex(/^[\x21-\x7e]+$/, { error: "expected visible ASCII characters without spaces" })
    .max(maxLength, { error: `expected at most ${maxLength} characters` });

/** An `Idempotency-Key` header value: 1–255 visible ASCII characters, no spaces. */
export const IdempotencyKey = visibleAscii(MAX_IDEMPOTENCY_KEY_LENGTH);
export type IdempotencyKey = z.infer<typeof IdempotencyKey>;

/** A prefix of chunk keys (chunk `i` uses `${prefix}-${i}`): like a key, at most 243 characters. */
export const IdempotencyKeyPrefix = visibleAscii(MAX_IDEMPOTENCY_KEY_PREFIX_LENGTH);
export type IdempotencyKeyPrefix = z.infer<typeof IdempotencyKeyPrefix>;
