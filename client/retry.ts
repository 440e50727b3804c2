/**
 * When to retry and how long to wait: pure functions of their arguments (no clock, no
 * randomness of their own), so each case is tested on its own.
 *
 * Every POST the client sends carries an `Idempotency-Key`, so retrying one after a lost
 * response cannot apply it twice: the service replays the stored response.
 */

import { IDEMPOTENCY_KEY_IN_USE } from "../schemas/idempotency-key";

/** How one attempt ended, as far as the retry decision is concerned. */
export type AttemptOutcome =
  /**
   * The service answered with this HTTP status; `problemTitle` is the `title` of its
   * problem-details body, when it sent one.
   */
  | { readonly kind: "response"; readonly status: number; readonly problemTitle?: string }
  /** The connection failed before a complete response arrived; `code` as in {@link networkErrorCode}. */
  | { readonly kind: "network"; readonly code?: string }
  /** No complete response within the per-attempt timeout. */
  | { readonly kind: "timeout" };

/** Backoff bounds, in milliseconds. */
export interface BackoffOptions {
  /** Ceiling of the first retry's delay, in ms; doubles each retry. */
  readonly baseMs: number;
  /** Largest ceiling, in ms, however many retries came before. */
  readonly maxMs: number;
}

/** Everything {@link retryDelayMs} needs besides the attempt number. */
export interface RetryPolicy extends BackoffOptions {
  /** Longest `Retry-After` honoured, in ms; a longer one is cut to this. */
  readonly maxRetryAfterMs: number;
}

/** Defaults: 0.5 s, 1 s, 2 s … ceilings up to 8 s; `Retry-After` honoured up to 60 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseMs: 500, maxMs: 8_000, maxRetryAfterMs: 60_000 };

/** Statuses worth retrying: 408 Request Timeout, 429 Too Many Requests, and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * True for a response worth retrying: a retryable status (see {@link isRetryableStatus}), or
 * a 409 whose problem title is `idempotency_key_in_use` — the first request with the same key
 * is still being processed, so a later attempt gets its stored answer. Any other 409 (a real
 * conflict) is final.
 */
export function isRetryableResponse(status: number, problemTitle: string | undefined): boolean {
  if (status === 409) return problemTitle === IDEMPOTENCY_KEY_IN_USE;
  return isRetryableStatus(status);
}

/**
 * Error codes of transient connection failures: the peer reset or closed the socket
 * (undici's `UND_ERR_SOCKET` is "other side closed"), refused the connection, or the
 * network or DNS was briefly unavailable. `ENOTFOUND` (no such host) is not transient.
 */
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

/** Error codes of undici's own timeouts (waiting for headers, or between body chunks). */
export const TIMEOUT_CODES: ReadonlySet<string> = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/**
 * The first string `code` found on an error or along its `cause` chain (undici's `fetch`
 * wraps the socket error in a `TypeError`; its `request` does not). Undefined if none.
 */
export function networkErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True when an outcome is transient: a retryable response, a transient network failure, or a timeout. */
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

/**
 * Whether to make another attempt.
 * @param outcome how the attempt just made ended (a 2xx is never retried)
 * @param attempt how many attempts have been made so far, from 1
 * @param maxRetries how many retries are allowed after the first attempt (so `maxRetries + 1` attempts in all)
 */
export function shouldRetry(outcome: AttemptOutcome, attempt: number, maxRetries: number): boolean {
  if (outcome.kind === "response" && outcome.status >= 200 && outcome.status <= 299) return false;
  return attempt <= maxRetries && isRetryableOutcome(outcome);
}

/**
 * Exponential backoff with full jitter: a delay drawn uniformly from
 * `[0, min(maxMs, baseMs · 2^(attempt − 1)))`, in whole milliseconds.
 * @param attempt how many attempts have been made so far, from 1 (so 1 before the first retry)
 * @param random a source of numbers in `[0, 1)`, such as `Math.random`
 */
export function backoffDelayMs(attempt: number, { baseMs, maxMs }: BackoffOptions, random: () => number): number {
  const exponent = Math.max(0, attempt - 1);
  // 2 ** exponent overflows to Infinity for absurd attempts; min() keeps it at maxMs.
  const ceiling = Math.min(maxMs, baseMs * 2 ** exponent);
  const fraction = Math.min(Math.max(random(), 0), 1);
  return Math.floor(fraction * ceiling);
}

// IMF-fixdate, the preferred HTTP-date form: `Sun, 06 Nov 1994 08:49:37 GMT`.
const IMF_FIXDATE = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
// The obsolete RFC 850 form: `Sunday, 06-Nov-94 08:49:37 GMT`.
const RFC_850_DATE = /^[A-Za-z]+, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * Parses a `Retry-After` header into a delay in milliseconds, or undefined when it is
 * absent or malformed. Accepts delay-seconds (`120`; a fractional `1.5` is tolerated) and
 * an HTTP-date, measured from `now`; a date in the past yields 0.
 * @param header the header value (the first one, if repeated)
 * @param now the current time in ms since the epoch, such as `Date.now()`
 */
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

/**
 * How long to wait before the next attempt, in ms: the service's `Retry-After` when it sent
 * one (cut to `policy.maxRetryAfterMs`), else {@link backoffDelayMs}.
 * @param attempt how many attempts have been made so far, from 1
 * @param retryAfterMs the parsed `Retry-After` of the last response, if any
 * @param random a source of numbers in `[0, 1)`
 */
export function retryDelayMs(attempt: number, retryAfterMs: number | undefined, policy: RetryPolicy, random: () => number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxRetryAfterMs);
  return backoffDelayMs(attempt, policy, random);
}
