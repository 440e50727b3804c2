import { randomUUID } from "node:crypto";

// The key formats (`IdempotencyKey`, `IdempotencyKeyPrefix`) are wire format: `schemas/idempotency-key.ts`.

/** A fresh key for one logical call (a random UUID); it is reused on every retry of that call. */
export function newIdempotencyKey(): string {
  return randomUUID();
}

/** The key of chunk `index` of a chunked send: `${prefix}-${index}`, the same on every re-run. */
export function chunkIdempotencyKey(prefix: string, index: number): string {
  return `${prefix}-${index}`;
}
