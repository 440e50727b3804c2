import { createHash } from "node:crypto";
import { IDEMPOTENCY_KEY_IN_USE, IDEMPOTENCY_KEY_MEMORY_MS, IdempotencyKey, MAX_IDEMPOTENCY_KEY_LENGTH } from "../../schemas";
import { ProblemError, RETRY_AFTER_SECONDS, problem } from "./problem-response";
import type { Reply } from "./reply";

/**
 * What identifies "the same request" for a key: method, path and a SHA-256 of the raw body
 * bytes. Raw bytes, not parsed content, so a client that re-serializes differently on a
 * retry is caught rather than silently treated as a new request.
 */
export function requestFingerprint(method: string, path: string, body: Buffer): string {
  return `${method} ${path} ${createHash("sha256").update(body).digest("hex")}`;
}

/**
 * Validates the value of the idempotency key header (`IDEMPOTENCY_KEY_HEADER`) with the
 * shared schema; throws 400 `invalid_idempotency_key`.
 */
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

/** Result of {@link IdempotencyStore.begin}. */
export type IdempotencyLookup =
  /** First use of the key: it is now marked in flight; call `complete` or `release`. */
  | { readonly kind: "new" }
  /** The key already has an answer for this same request: send it again. */
  | { readonly kind: "replay"; readonly reply: Reply }
  /** The key was used for a different request (method, path or body). */
  | { readonly kind: "mismatch" }
  /** The same request is still being processed under this key. */
  | { readonly kind: "in_flight" };

interface Entry {
  readonly fingerprint: string;
  /** When the entry stops counting, in milliseconds since the epoch. */
  readonly expiresAt: number;
  reply?: Reply;
}

/** Bounds of the idempotency store. */
export interface IdempotencyLimits {
  /** Most keys remembered; the oldest are forgotten first. Default {@link DEFAULT_IDEMPOTENCY_MAX_KEYS}. */
  readonly maxKeys?: number;
  /** How long a key is remembered, in milliseconds. Default {@link DEFAULT_IDEMPOTENCY_TTL_MS} (24 h). */
  readonly ttlMs?: number;
  /** The clock, in milliseconds since the epoch (tests). Default `Date.now`. */
  readonly now?: () => number;
}

/** Default number of keys remembered: 10,000 (with 1,000-message batches, ten million messages). */
export const DEFAULT_IDEMPOTENCY_MAX_KEYS = 10_000;
/** Default time a key is remembered: the key memory the package assumes of the service. */
export const DEFAULT_IDEMPOTENCY_TTL_MS = IDEMPOTENCY_KEY_MEMORY_MS;

/**
 * Stored answers by idempotency key: at most `maxKeys` of them, each for `ttlMs` after its
 * first use. A key forgotten (expired or pushed out) is new again.
 *
 * Only answers of requests that did their work (2xx) are stored: a request rejected by
 * validation or by an injected 5xx/429 changed nothing, so the key stays free and a retry
 * with it is processed afresh. The in-flight state matters only if a handler ever awaits
 * between `begin` and `complete`; today's /v1 handlers are synchronous once the body is
 * read, so two requests cannot interleave there, but the guard keeps that an implementation
 * detail rather than a correctness condition.
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

  /** Keys remembered now. */
  get size(): number {
    return this.entries.size;
  }

  /** Looks the key up and, when it is new, marks it in flight for `fingerprint`. */
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

  /** Stores the answer of a key begun with `begin`. */
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

/** 422 `idempotency_key_reused`: the key already belongs to a different request. */
export function keyReusedProblem(): ProblemError {
  return problem(
    422,
    "idempotency_key_reused",
    "This Idempotency-Key was already used for a different request (method, path or body); use a new key for a new request.",
  );
}

/** 409 `idempotency_key_in_use`: the same request is still being processed. */
export function keyInUseProblem(): ProblemError {
  return problem(409, IDEMPOTENCY_KEY_IN_USE, "A request with this Idempotency-Key is still being processed; retry shortly.", {
    headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
  });
}
