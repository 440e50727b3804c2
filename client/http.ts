import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";
import { errorFromResponse } from "../errors/from-response";
import { ConnectionError, TimeoutError, type RequestInfo } from "../errors/messaging-error";
import { IDEMPOTENCY_KEY_HEADER, REQUEST_ID_HEADER } from "../schemas/http";
import type { Redactor } from "./redact";
import {
  TIMEOUT_CODES,
  networkErrorCode,
  parseRetryAfter,
  retryDelayMs,
  shouldRetry,
  type AttemptOutcome,
  type RetryPolicy,
} from "./retry";

/** Everything the request loop needs; built once per client. */
export interface HttpConfig {
  readonly dispatcher: Dispatcher;
  readonly origin: string;
  readonly pathPrefix: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Timeout of one attempt, in ms, from sending to having read the whole body. */
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly retryPolicy: RetryPolicy;
  /** For jitter. Default `Math.random`. */
  readonly random?: () => number;
  /** Removes the API key from anything the server sent, before it enters an error. */
  readonly redact: Redactor;
}

/** A request is about to be retried. */
export interface RetryNotice {
  /** The attempt that just failed, from 1. */
  readonly attempt: number;
  /** How long the client waits before the next attempt, in ms. */
  readonly delayMs: number;
  /** Why the attempt failed, e.g. `HTTP 503` or `ECONNRESET`. */
  readonly reason: string;
}

/** One logical call; the same request is sent on every attempt. */
export interface HttpRequest {
  readonly method: "GET" | "POST";
  /** API path, e.g. `/v1/message_batches` (the base URL's path is put in front). */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** The `Idempotency-Key` of a POST, carried by every error of the call. */
  readonly idempotencyKey?: string;
  /** Cancels the call, including a wait between attempts. */
  readonly signal?: AbortSignal;
  readonly onRetry?: (notice: RetryNotice) => void;
}

/** A 2xx response with its body read. */
export interface HttpResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** {@link NOT_JSON} when the body is not JSON or is empty. */
  readonly json: unknown;
  /** True when the body was empty (or only whitespace). */
  readonly empty: boolean;
  readonly requestId?: string;
  /** Removes the API key from text taken from this response into an error. */
  readonly redact: (text: string) => string;
}

/** Stands for a body that is not JSON; callers report it without echoing the body. */
export const NOT_JSON: unique symbol = Symbol("not JSON");

// Thrown by `attempt` when its own timer (not the caller) aborted it.
const ATTEMPT_TIMED_OUT = Symbol("attempt timed out");

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  json: unknown;
  empty: boolean;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function parseJson(text: string, empty: boolean): unknown {
  if (empty) return NOT_JSON;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * One attempt, the whole body read within the timeout (so the socket goes back to the pool).
 * undici's `dispatch` rather than `request()`: no body stream, no AbortController per attempt.
 */
function attempt(config: HttpConfig, request: HttpRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const callerSignal = request.signal;
    let controller: Dispatcher.DispatchController | undefined;
    let settled = false;
    let timedOut = false;
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    const finish = (error: unknown, response?: RawResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onCallerAbort);
      if (response === undefined) reject(error);
      else resolve(response);
    };
    // Before the dispatcher hands over its controller there is nothing to cancel yet.
    const abort = (reason: unknown) => (controller === undefined ? finish(reason) : controller.abort(reason as Error));
    const timer = setTimeout(() => {
      timedOut = true;
      // The reason is the sentinel itself: no Error (and its stack) is built for each attempt.
      abort(ATTEMPT_TIMED_OUT);
    }, config.timeoutMs);
    const onCallerAbort = () => abort(callerSignal?.reason);
    callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        if (settled) started.abort(ATTEMPT_TIMED_OUT as unknown as Error);
        else controller = started;
      },
      onResponseStart(_controller, statusCode, responseHeaders) {
        // 1xx answers come before the real one.
        if (statusCode < 200) return;
        status = statusCode;
        headers = responseHeaders;
      },
      onResponseData(_controller, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        // As undici's `body.text()` reads it: UTF-8, a leading byte order mark skipped.
        const bom = bytes.length > 2 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
        const text = bytes.toString("utf8", bom ? 3 : 0);
        const empty = text.trim() === "";
        finish(undefined, { status, headers, json: parseJson(text, empty), empty });
      },
      onResponseError(_controller, error) {
        // undici fails with the abort reason, or with its own error if it lost the race.
        finish(timedOut && !callerSignal?.aborted ? ATTEMPT_TIMED_OUT : error);
      },
    };
    try {
      config.dispatcher.dispatch(
        {
          origin: config.origin,
          path: config.pathPrefix + request.path,
          method: request.method,
          headers:
            request.idempotencyKey === undefined
              ? { ...config.headers, ...request.headers }
              : { ...config.headers, ...request.headers, [IDEMPOTENCY_KEY_HEADER]: request.idempotencyKey },
          body: request.body,
          // undici's own defaults are 300 s; ours bounds the whole attempt, these each phase.
          headersTimeout: config.timeoutMs,
          bodyTimeout: config.timeoutMs,
        },
        handler,
      );
    } catch (error) {
      finish(error);
    }
  });
}

/**
 * Returns the first 2xx response, retrying transient failures (`retry.ts`). Otherwise throws
 * the last `ApiError`, `TimeoutError` or `ConnectionError`, or the signal's reason.
 */
export async function sendRequest(config: HttpConfig, request: HttpRequest): Promise<HttpResponse> {
  const random = config.random ?? Math.random;
  // Whether an attempt so far may have reached the service (an answer, a timeout, a failure after connecting).
  let mayHaveArrived = false;
  for (let attemptNumber = 1; ; attemptNumber++) {
    request.signal?.throwIfAborted();
    const info: RequestInfo = { method: request.method, path: request.path, idempotencyKey: request.idempotencyKey };
    let outcome: AttemptOutcome;
    let failure: Error;
    let retryAfterMs: number | undefined;
    try {
      const response = await attempt(config, request);
      const sentRequestId = header(response.headers, REQUEST_ID_HEADER);
      const requestId = sentRequestId === undefined ? undefined : config.redact.text(sentRequestId);
      if (response.status >= 200 && response.status <= 299) {
        return {
          status: response.status,
          headers: response.headers,
          json: response.json,
          empty: response.empty,
          requestId,
          redact: config.redact.text,
        };
      }
      retryAfterMs = parseRetryAfter(response.headers["retry-after"], Date.now());
      const body = response.json === NOT_JSON ? undefined : config.redact.json(response.json);
      const apiError = errorFromResponse(response.status, { ...info, requestId }, body, retryAfterMs);
      failure = apiError;
      // The title tells a transient 409 (`idempotency_key_in_use`) from a final one.
      outcome = { kind: "response", status: response.status, problemTitle: apiError.problem?.title };
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      const code = networkErrorCode(error);
      if (error === ATTEMPT_TIMED_OUT || (code !== undefined && TIMEOUT_CODES.has(code))) {
        outcome = { kind: "timeout" };
        failure = new TimeoutError(info, config.timeoutMs, attemptNumber);
      } else if (code !== undefined) {
        outcome = { kind: "network", code };
        failure = new ConnectionError(info, attemptNumber, error, mayHaveArrived);
      } else {
        // Not a network failure (a bug, or a dispatcher misbehaving): do not disguise it.
        throw error;
      }
    }
    if (!(failure instanceof ConnectionError) || failure.kind === "other") mayHaveArrived = true;
    if (!shouldRetry(outcome, attemptNumber, config.maxRetries)) throw failure;
    const delayMs = retryDelayMs(attemptNumber, retryAfterMs, config.retryPolicy, random);
    request.onRetry?.({ attempt: attemptNumber, delayMs, reason: describeOutcome(outcome) });
    await sleep(delayMs, request.signal);
  }
}

function describeOutcome(outcome: AttemptOutcome): string {
  switch (outcome.kind) {
    case "response":
      return `HTTP ${outcome.status}`;
    case "network":
      return outcome.code ?? "connection failed";
    case "timeout":
      return "timeout";
  }
}
