import type { Dispatcher } from "undici";
import { ConfigurationError } from "../errors/messaging-error";
import { ApiVersion } from "../schemas/api-version";
import { hasLoneSurrogate } from "../schemas/utf8-text";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";

/** `X-Service-Version` sent when `apiVersion` is not set: the version the spec's requests show. */
export const DEFAULT_API_VERSION = "2024-06-01";
/** Per-attempt timeout when `timeoutMs` is not set: 30 s. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Retries after the first attempt when `maxRetries` is not set (so up to 4 attempts). */
export const DEFAULT_MAX_RETRIES = 3;

// setTimeout fires at once for delays above 2^31 − 1 ms.
const MAX_TIMER_MS = 2_147_483_647;

/** Settings of a {@link MessagingClient}. */
export interface MessagingClientOptions {
  /** The secret API key, sent as the HTTP Basic username. It never appears in an error message or property. */
  apiKey: string;
  /** The service's root URL, e.g. `https://api.example.com`; a path is kept as a prefix of every `/v1/…` path. */
  baseUrl: string;
  /** Value of the `X-Service-Version` header, a date `YYYY-MM-DD`. Default `"2024-06-01"`. */
  apiVersion?: string;
  /** Timeout of one attempt (not of all retries), in ms, until the whole response is read. Default 30000. */
  timeoutMs?: number;
  /** Retries of a transient failure, so up to `maxRetries + 1` attempts; 0 disables retries. Default 3. */
  maxRetries?: number;
  /**
   * The undici dispatcher to send through; the caller owns it and {@link MessagingClient.close}
   * leaves it open. Default: a private `Agent`. The global dispatcher is never read or set.
   */
  dispatcher?: Dispatcher;
  /** Ceiling of the first retry's delay, in ms, doubled each retry (full jitter). Default 500. */
  retryBaseDelayMs?: number;
  /** Largest backoff ceiling, in ms. Default 8000. */
  retryMaxDelayMs?: number;
  /** Longest `Retry-After` the client waits, in ms; a longer one is cut to this. Default 60000. */
  maxRetryAfterMs?: number;
}

/** Options after checking, as the client uses them. Holds the credentials: keep it private. */
export interface ResolvedClientOptions {
  readonly authorization: string;
  readonly origin: string;
  readonly pathPrefix: string;
  readonly apiVersion: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly retryPolicy: RetryPolicy;
  readonly dispatcher?: Dispatcher;
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function fail(message: string): never {
  throw new ConfigurationError(`MessagingClient: ${message}`);
}

function checkNumber(
  name: string,
  value: unknown,
  fallback: number,
  { min, max, integer }: { min: number; max: number; integer?: boolean },
): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    fail(
      `option '${name}' must be ${integer ? "an integer" : "a number"} from ${min} to ${max}, got ${typeof value === "number" ? value : typeof value}`,
    );
  }
  return value;
}

/**
 * Throws {@link ConfigurationError} naming the option at fault. Messages echo no string option:
 * a key pasted into the wrong option would be printed.
 */
export function resolveClientOptions(options: MessagingClientOptions): ResolvedClientOptions {
  if (typeof options !== "object" || options === null) fail("expected an options object with at least 'apiKey' and 'baseUrl'");

  const { apiKey } = options;
  if (typeof apiKey !== "string" || apiKey.trim() === "") {
    fail("option 'apiKey' is required: pass the service's secret API key (a non-empty string)");
  }
  // HTTP Basic: the username may not contain ':'; control characters cannot go in a header.
  if (apiKey.includes(":") || hasControlCharacter(apiKey)) {
    fail("option 'apiKey' must not contain ':' or control characters (the value is not shown)");
  }
  // Half of a UTF-16 pair cannot be written as UTF-8: the header would carry U+FFFD instead.
  if (hasLoneSurrogate(apiKey)) {
    fail(
      "option 'apiKey' contains a lone surrogate (half of a UTF-16 pair), which cannot be sent: check how it was read (the value is not shown)",
    );
  }

  if (typeof options.baseUrl !== "string" || options.baseUrl.trim() === "") {
    fail("option 'baseUrl' is required, e.g. 'http://127.0.0.1:4010'");
  }
  let url: URL;
  try {
    url = new URL(options.baseUrl.trim());
  } catch {
    fail("option 'baseUrl' is not an absolute URL (expected e.g. 'https://api.example.com'; the value is not shown)");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") fail(`option 'baseUrl' must use http or https, not '${url.protocol}'`);
  if (url.username !== "" || url.password !== "") fail("option 'baseUrl' must not contain credentials: pass the key as 'apiKey'");
  if (url.search !== "" || url.hash !== "") fail("option 'baseUrl' must not have a query string or fragment");
  // Every request path starts with /v1: a base URL ending in it would call /v1/v1/… and meet a
  // 404 that no retry or re-run can fix.
  if (/\/v1$/i.test(url.pathname.replace(/\/+$/, ""))) {
    fail("option 'baseUrl' must not end in '/v1', which the client adds to every path: give the service's root URL, without '/v1'");
  }

  const apiVersion = options.apiVersion ?? DEFAULT_API_VERSION;
  if (!ApiVersion.safeParse(apiVersion).success) {
    fail(`option 'apiVersion' must be a calendar date written YYYY-MM-DD, such as '${DEFAULT_API_VERSION}' (the value is not shown)`);
  }

  const timeoutMs = checkNumber("timeoutMs", options.timeoutMs, DEFAULT_TIMEOUT_MS, { min: 1, max: MAX_TIMER_MS });
  const maxRetries = checkNumber("maxRetries", options.maxRetries, DEFAULT_MAX_RETRIES, { min: 0, max: 100, integer: true });
  const baseMs = checkNumber("retryBaseDelayMs", options.retryBaseDelayMs, DEFAULT_RETRY_POLICY.baseMs, { min: 0, max: MAX_TIMER_MS });
  const maxMs = checkNumber("retryMaxDelayMs", options.retryMaxDelayMs, Math.max(DEFAULT_RETRY_POLICY.maxMs, baseMs), {
    min: 0,
    max: MAX_TIMER_MS,
  });
  const maxRetryAfterMs = checkNumber("maxRetryAfterMs", options.maxRetryAfterMs, DEFAULT_RETRY_POLICY.maxRetryAfterMs, {
    min: 0,
    max: MAX_TIMER_MS,
  });

  const dispatcher = options.dispatcher;
  if (dispatcher !== undefined && (typeof dispatcher !== "object" || dispatcher === null || typeof dispatcher.request !== "function")) {
    fail("option 'dispatcher' must be an undici Dispatcher (Agent, Pool, MockAgent…)");
  }

  return {
    authorization: `Basic ${Buffer.from(`${apiKey}:`, "utf8").toString("base64")}`,
    origin: url.origin,
    pathPrefix: url.pathname.replace(/\/+$/, ""),
    apiVersion,
    timeoutMs,
    maxRetries,
    retryPolicy: { baseMs, maxMs, maxRetryAfterMs },
    dispatcher,
  };
}
