import { createHash } from "node:crypto";
import { IDEMPOTENCY_KEY_IN_USE, IDEMPOTENCY_KEY_MEMORY_MS, IdempotencyKey, MAX_IDEMPOTENCY_KEY_LENGTH } from "../../schemas";
import { ProblemError, RETRY_AFTER_SECONDS, problem } from "./problem-response";
import type { Reply } from "./reply";

/** Raw bytes, not parsed content: a client that re-serializes differently on a retry is caught. */
export function requestFingerprint(method: string, path: string, body: Buffer): string {
  return `${method} ${path} ${createHash("sha256").update(body).digest("hex")}`;
}

export function checkIdempotencyKey(value: string): string {
  if (!IdempotencyKey.safeParse(value).success) {
    throw problem(
      400,
      "invalid_idempotency_key",
      `The Idempotency-Key header must be 1–${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters.`,
    );
  }
  return value;
}

export type IdempotencyLookup =
  /** The key is now marked in flight; call `complete` or `release`. */
  | { readonly kind: "new" }
  | { readonly kind: "replay"; readonly reply: Reply }
  | { readonly kind: "mismatch" }
  | { readonly kind: "in_flight" };

interface Entry {
  readonly fingerprint: string;
  readonly expiresAt: number;
  reply?: Reply;
}

export interface IdempotencyLimits {
  /** The oldest are forgotten first. */
  readonly maxKeys?: number;
  readonly ttlMs?: number;
  readonly now?: () => number;
}

/** With 1,000-message batches, ten million messages. */
export const DEFAULT_IDEMPOTENCY_MAX_KEYS = 10_000;
/** The key memory the package assumes of the service. */
export const DEFAULT_IDEMPOTENCY_TTL_MS = IDEMPOTENCY_KEY_MEMORY_MS;

/**
 * Only answers of requests that did their work (2xx) are stored: a request rejected by
 * validation or an injected fault changed nothing, so a retry with its key is processed afresh.
 * The in-flight state keeps handlers free to await between `begin` and `complete`.
 */
export class IdempotencyStore {
  // A Map iterates in insertion order, which is also expiry order (one TTL for all).
  private readonly entries = new Map<string, Entry>();
  private readonly maxKeys: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(limits: IdempotencyLimits = {}) {
    this.maxKeys = limits.maxKeys ?? DEFAULT_IDEMPOTENCY_MAX_KEYS;
    this.ttlMs = limits.ttlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS;
    this.now = limits.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  begin(key: string, fingerprint: string): IdempotencyLookup {
    const now = this.now();
    this.forgetExpired(now);
    const entry = this.entries.get(key);
    if (entry === undefined) {
      while (this.entries.size >= this.maxKeys) this.entries.delete(this.entries.keys().next().value!);
      if (this.maxKeys > 0) this.entries.set(key, { fingerprint, expiresAt: now + this.ttlMs });
      return { kind: "new" };
    }
    if (entry.fingerprint !== fingerprint) return { kind: "mismatch" };
    if (entry.reply === undefined) return { kind: "in_flight" };
    return { kind: "replay", reply: entry.reply };
  }

  complete(key: string, reply: Reply): void {
    const entry = this.entries.get(key);
    if (entry !== undefined) entry.reply = reply;
  }

  /** Frees a key whose request did no work, so it may be used again. */
  release(key: string): void {
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.reply === undefined) this.entries.delete(key);
  }

  private forgetExpired(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt > now) return;
      this.entries.delete(key);
    }
  }
}

export function keyReusedProblem(): ProblemError {
  return problem(
    422,
    "idempotency_key_reused",
    "This Idempotency-Key was already used for a different request (method, path or body); use a new key for a new request.",
  );
}

export function keyInUseProblem(): ProblemError {
  return problem(409, IDEMPOTENCY_KEY_IN_USE, "A request with this Idempotency-Key is still being processed; retry shortly.", {
    headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
  });
}
