/**
 * When to retry and how long to wait, as pure functions. Every POST carries an
 * `Idempotency-Key`, so retrying one after a lost response cannot apply it twice.
 */

import { IDEMPOTENCY_KEY_IN_USE } from "../schemas/idempotency-key";

/** How one attempt ended, as far as the retry decision is concerned. */
export type AttemptOutcome =
  | { readonly kind: "response"; readonly status: number; readonly problemTitle?: string }
  | { readonly kind: "network"; readonly code?: string }
  | { readonly kind: "timeout" };

/** Backoff bounds, in milliseconds. */
export interface BackoffOptions {
  /** Ceiling of the first retry's delay, in ms; doubles each retry. */
  readonly baseMs: number;
  /** Largest ceiling, in ms, however many retries came before. */
  readonly maxMs: number;
}

export interface RetryPolicy extends BackoffOptions {
  /** Longest `Retry-After` honoured, in ms; a longer one is cut to this. */
  readonly maxRetryAfterMs: number;
}

/** Defaults: 0.5 s, 1 s, 2 s … ceilings up to 8 s; `Retry-After` honoured up to 60 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseMs: 500, maxMs: 8_000, maxRetryAfterMs: 60_000 };

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * A 409 `idempotency_key_in_use` is retried: the first request with the key is still being
 * processed, and a later attempt gets its stored answer. Any other 409 is final.
 */
export function isRetryableResponse(status: number, problemTitle: string | undefined): boolean {
  if (status === 409) return problemTitle === IDEMPOTENCY_KEY_IN_USE;
  return isRetryableStatus(status);
}

/** Transient connection failures. `ENOTFOUND` (no such host) is not transient. */
export const RETRYABLE_NETWORK_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "ENETUNREACH",
  "ENETDOWN",
  "EHOSTUNREACH",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
]);

export const TIMEOUT_CODES: ReadonlySet<string> = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** The first string `code` along the `cause` chain: undici's `fetch` wraps the socket error, its `request` does not. */
export function networkErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function isRetryableOutcome(outcome: AttemptOutcome): boolean {
  switch (outcome.kind) {
    case "response":
      return isRetryableResponse(outcome.status, outcome.problemTitle);
    case "network":
      return outcome.code !== undefined && RETRYABLE_NETWORK_CODES.has(outcome.code);
    case "timeout":
      return true;
  }
}

/** @param attempt how many attempts have been made so far, from 1 */
export function shouldRetry(outcome: AttemptOutcome, attempt: number, maxRetries: number): boolean {
  if (outcome.kind === "response" && outcome.status >= 200 && outcome.status <= 299) return false;
  return attempt <= maxRetries && isRetryableOutcome(outcome);
}

/** Full jitter: uniform in `[0, min(maxMs, baseMs · 2^(attempt − 1)))`, in whole ms; `attempt` from 1. */
export function backoffDelayMs(attempt: number, { baseMs, maxMs }: BackoffOptions, random: () => number): number {
  const exponent = Math.max(0, attempt - 1);
  // 2 ** exponent overflows to Infinity for absurd attempts; min() keeps it at maxMs.
  const ceiling = Math.min(maxMs, baseMs * 2 ** exponent);
  const fraction = Math.min(Math.max(random(), 0), 1);
  return Math.floor(fraction * ceiling);
}

// `Sun, 06 Nov 1994 08:49:37 GMT`
const IMF_FIXDATE = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
// RFC 850, obsolete: `Sunday, 06-Nov-94 08:49:37 GMT`
const RFC_850_DATE = /^[A-Za-z]+, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;

/** Delay-seconds (a fractional `1.5` tolerated) or an HTTP-date from `now`; undefined when absent or malformed. */
export function parseRetryAfter(header: string | readonly string[] | undefined, now: number): number | undefined {
  const raw = typeof header === "string" ? header : header?.[0];
  if (raw === undefined) return undefined;
  const value = raw.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  if (IMF_FIXDATE.test(value) || RFC_850_DATE.test(value)) {
    const at = Date.parse(value);
    if (Number.isFinite(at)) return Math.max(0, at - now);
  }
  return undefined;
}

/** A `Retry-After` is honoured whatever the retried status. */
export function retryDelayMs(attempt: number, retryAfterMs: number | undefined, policy: RetryPolicy, random: () => number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxRetryAfterMs);
  return backoffDelayMs(attempt, policy, random);
}
