import { connectionFailureAdvice, connectionFailureKind, type ConnectionFailureKind } from "./connection-failure";
import { describeFieldErrors, type FieldErrors } from "../schemas/field-errors";
import type { Problem } from "../schemas/types";

// A brand rather than `instanceof`: Pulumi's closure serialization and test runners can load
// two copies of this module, and `instanceof` fails across them.
const BRAND = Symbol.for("pulumi-messaging.error");

export type MessagingErrorCode =
  | "api_error"
  | "invalid_request"
  | "authentication_failed"
  | "permission_denied"
  | "not_found"
  | "conflict"
  | "rate_limited"
  | "server_error"
  | "invalid_input"
  | "configuration_error"
  | "connection_error"
  | "timeout"
  | "invalid_response"
  | "signature_verification_failed"
  | "unsupported_operation"
  | "partial_send"
  | "payload_too_large";

/** Base of every error this package throws. Messages never contain the API key or a webhook secret. */
export class MessagingError extends Error {
  readonly [BRAND] = true;
  readonly code: MessagingErrorCode;

  constructor(code: MessagingErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** True for any error of this package, whichever copy of the module made it. */
export function isMessagingError(value: unknown): value is MessagingError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

function hasCode<T extends MessagingError>(codes: readonly MessagingErrorCode[]) {
  return (value: unknown): value is T => isMessagingError(value) && codes.includes(value.code);
}

/** What identifies the failed HTTP call. */
export interface RequestInfo {
  method: string;
  /** Path without the base URL. */
  path: string;
  requestId?: string;
  /** Every POST has one. */
  idempotencyKey?: string;
}

const REFUSED_OUTRIGHT: ReadonlySet<number> = new Set([400, 401, 403, 404, 413, 415, 422]);

/** True when the service refused the call outright and did nothing; any other failure (a 5xx, a timeout) may have taken effect. */
export function isRefusedOutright(error: unknown): boolean {
  return isApiError(error) && REFUSED_OUTRIGHT.has(error.status);
}

// Retrying with this key cannot duplicate. A call refused outright gets no note: retrying it would not help.
function keyNote(request: RequestInfo, status?: number): string {
  return request.idempotencyKey === undefined || (status !== undefined && REFUSED_OUTRIGHT.has(status))
    ? ""
    : `\nidempotency key: ${request.idempotencyKey} (retry with it to make sure the call takes effect once)`;
}

/** The service answered with a non-2xx status. Each class owns its `code`, so a class and its code cannot disagree. */
export class ApiError extends MessagingError {
  static readonly code: MessagingErrorCode = "api_error";
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly requestId?: string;
  /** The problem-details body, the API key removed from it. */
  readonly problem?: Problem;
  /** Pass it again to retry safely. */
  readonly idempotencyKey?: string;

  constructor(status: number, request: RequestInfo, problem?: Problem) {
    super((new.target as typeof ApiError).code, describeApiError(status, request, problem));
    this.status = status;
    this.method = request.method;
    this.path = request.path;
    this.requestId = request.requestId;
    this.problem = problem;
    this.idempotencyKey = request.idempotencyKey;
  }

  get fieldErrors(): FieldErrors {
    return this.problem?.errors ?? {};
  }
}

function describeApiError(status: number, request: RequestInfo, problem?: Problem): string {
  const parts = [`${request.method} ${request.path} failed with HTTP ${status}`];
  if (problem?.title) parts[0] += ` (${problem.title})`;
  if (problem?.detail) parts.push(problem.detail);
  if (problem?.errors && Object.keys(problem.errors).length > 0) parts.push(describeFieldErrors(problem.errors, { indent: "  " }));
  if (request.requestId) parts.push(`request id: ${request.requestId}`);
  return parts.join("\n") + keyNote(request, status);
}

/** An {@link ApiError} class of its own, for one status family: its errors carry `code`. */
function apiErrorClass(code: MessagingErrorCode): typeof ApiError {
  return class extends ApiError {
    static override readonly code = code;
  };
}

/** 400/422: the service rejected the request's content. */
export class InvalidRequestError extends apiErrorClass("invalid_request") {}
/** 401: the API key is missing or wrong. */
export class AuthenticationError extends apiErrorClass("authentication_failed") {}
/** 403: the key may not do this. */
export class PermissionError extends apiErrorClass("permission_denied") {}
/** 404: no such route or object. */
export class NotFoundError extends apiErrorClass("not_found") {}
/**
 * 409: conflicts with the current state. `idempotency_key_in_use` surfaces only when the client's retries run out. A key reused
 * with another body is a 422 {@link InvalidRequestError}.
 */
export class ConflictError extends apiErrorClass("conflict") {}
/** 429: too many requests. */
export class RateLimitError extends apiErrorClass("rate_limited") {
  /** How long the service asked to wait (from `Retry-After`), in milliseconds. */
  readonly retryAfterMs?: number;
  constructor(status: number, request: RequestInfo, problem: Problem | undefined, retryAfterMs?: number) {
    super(status, request, problem);
    this.retryAfterMs = retryAfterMs;
  }
}
/** 5xx: the service failed. */
export class ServerError extends apiErrorClass("server_error") {}

/** Input was rejected before any request was made. `fieldErrors` names each bad field. */
export class ValidationError extends MessagingError {
  readonly fieldErrors: FieldErrors;
  constructor(what: string, fieldErrors: FieldErrors) {
    super("invalid_input", `Invalid ${what}:\n${describeFieldErrors(fieldErrors, { indent: "  " })}`);
    this.fieldErrors = fieldErrors;
  }
}

/** Settings are missing or wrong (e.g. no API key). */
export class ConfigurationError extends MessagingError {
  constructor(message: string) {
    super("configuration_error", message);
  }
}

/** The connection failed before a response arrived. The key to retry with is given only when the request may have reached the service. */
export class ConnectionError extends MessagingError {
  readonly attempts: number;
  /** The service may have applied it: retry with it. */
  readonly idempotencyKey?: string;
  readonly kind: ConnectionFailureKind;
  /** @param earlierMayHaveArrived the request may have taken effect whatever the last attempt's kind */
  constructor(request: RequestInfo, attempts: number, cause: unknown, earlierMayHaveArrived = false) {
    const kind = connectionFailureKind(cause);
    const code = (cause as { code?: unknown } | undefined)?.code;
    // OpenSSL's text ("…:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:…") says nothing to most readers.
    const reason =
      kind === "tls_to_plain_http"
        ? `TLS handshake failed${typeof code === "string" ? ` (${code})` : " (wrong version number)"}`
        : cause instanceof Error
          ? cause.message
          : String(cause);
    const advice = connectionFailureAdvice(kind);
    super(
      "connection_error",
      `${request.method} ${request.path}: connection failed after ${attempts} attempt(s): ${reason}` +
        (advice === undefined ? keyNote(request) : `\n${advice}${earlierMayHaveArrived ? keyNote(request) : ""}`),
      { cause },
    );
    this.attempts = attempts;
    this.idempotencyKey = request.idempotencyKey;
    this.kind = kind;
  }
}

/** No response within the timeout, on every attempt. */
export class TimeoutError extends MessagingError {
  readonly timeoutMs: number;
  readonly attempts: number;
  /** The service may have applied it: retry with it. */
  readonly idempotencyKey?: string;
  constructor(request: RequestInfo, timeoutMs: number, attempts: number) {
    super(
      "timeout",
      `${request.method} ${request.path}: no response within ${timeoutMs} ms, after ${attempts} attempt(s)${keyNote(request)}`,
    );
    this.timeoutMs = timeoutMs;
    this.attempts = attempts;
    this.idempotencyKey = request.idempotencyKey;
  }
}

/**
 * A 2xx response whose body does not match the expected schema. The call did reach the
 * service: when the body carried an `id`, `resourceId` holds it so the object is not lost.
 */
export class ResponseSchemaError extends MessagingError {
  readonly fieldErrors: FieldErrors;
  readonly requestId?: string;
  readonly resourceId?: string;
  /** Retrying with it gets the same answer back. */
  readonly idempotencyKey?: string;
  constructor(request: RequestInfo, fieldErrors: FieldErrors, resourceId?: string) {
    const created = resourceId ? `\nthe service did accept the call and returned id ${resourceId}` : "";
    const fields = describeFieldErrors(fieldErrors, { indent: "  " });
    super("invalid_response", `${request.method} ${request.path}: unexpected response body:\n${fields}${created}${keyNote(request)}`);
    this.fieldErrors = fieldErrors;
    this.requestId = request.requestId;
    this.resourceId = resourceId;
    this.idempotencyKey = request.idempotencyKey;
  }
}

/** One batch accepted by the service during a chunked send. */
export interface SentBatch {
  index: number;
  id?: string;
  count: number;
  /** Resend with it and it is not sent twice. */
  idempotencyKey: string;
}

/**
 * A chunked send stopped part-way. `sent` lists the chunks the service accepted; the chunk
 * at `failedIndex` (and any after it) was not confirmed. Re-running with the same messages,
 * the same `batchSize` and {@link PartialSendError.idempotencyKeyPrefix} resends nothing twice.
 */
export class PartialSendError extends MessagingError {
  readonly sent: SentBatch[];
  readonly failedIndex: number;
  /** Pass it as `idempotencyKeyPrefix` to resume, also when it was generated for this send. */
  readonly idempotencyKeyPrefix: string;
  constructor(sent: SentBatch[], failedIndex: number, idempotencyKeyPrefix: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const accepted = sent.reduce((n, b) => n + b.count, 0);
    // The prefix is not a secret, and without it a caller who let it be generated cannot resume.
    super(
      "partial_send",
      `sending stopped at chunk ${failedIndex}: ${accepted} message(s) in ${sent.length} chunk(s) were accepted before it failed: ${reason}\n` +
        `resume with idempotencyKeyPrefix ${JSON.stringify(idempotencyKeyPrefix)} (same messages, same batchSize) to send nothing twice`,
      { cause },
    );
    this.sent = sent;
    this.failedIndex = failedIndex;
    this.idempotencyKeyPrefix = idempotencyKeyPrefix;
  }
}

/**
 * A webhook request did not verify; `reason` says why. `duplicate_event` (only with a replay
 * guard) is the exception among them: the request is authentic but its event was seen before,
 * so answer it 2xx (the sender then stops redelivering) without processing it again.
 */
export class SignatureVerificationError extends MessagingError {
  readonly reason: "missing_header" | "malformed_header" | "timestamp_out_of_tolerance" | "no_matching_signature" | "duplicate_event";
  constructor(reason: SignatureVerificationError["reason"], message: string) {
    super("signature_verification_failed", message);
    this.reason = reason;
  }
}

/** A webhook request's body is larger than the receiver accepts (`maxBodyBytes`); answer 413. */
export class BodyTooLargeError extends MessagingError {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super("payload_too_large", `the request body is larger than ${maxBytes} bytes (maxBodyBytes)`);
    this.maxBytes = maxBytes;
  }
}

/** An operation the service does not offer (update, delete, retrieve). */
export class UnsupportedOperationError extends MessagingError {
  constructor(message: string) {
    super("unsupported_operation", message);
  }
}

export const isApiError = hasCode<ApiError>([
  "api_error",
  "invalid_request",
  "authentication_failed",
  "permission_denied",
  "not_found",
  "conflict",
  "rate_limited",
  "server_error",
]);
export const isInvalidRequestError = hasCode<InvalidRequestError>(["invalid_request"]);
export const isAuthenticationError = hasCode<AuthenticationError>(["authentication_failed"]);
export const isPermissionError = hasCode<PermissionError>(["permission_denied"]);
export const isNotFoundError = hasCode<NotFoundError>(["not_found"]);
export const isConflictError = hasCode<ConflictError>(["conflict"]);
export const isRateLimitError = hasCode<RateLimitError>(["rate_limited"]);
export const isServerError = hasCode<ServerError>(["server_error"]);
export const isValidationError = hasCode<ValidationError>(["invalid_input"]);
export const isConfigurationError = hasCode<ConfigurationError>(["configuration_error"]);
export const isConnectionError = hasCode<ConnectionError>(["connection_error"]);
export const isTimeoutError = hasCode<TimeoutError>(["timeout"]);
export const isResponseSchemaError = hasCode<ResponseSchemaError>(["invalid_response"]);
export const isPartialSendError = hasCode<PartialSendError>(["partial_send"]);
export const isUnsupportedOperationError = hasCode<UnsupportedOperationError>(["unsupported_operation"]);
export const isSignatureVerificationError = hasCode<SignatureVerificationError>(["signature_verification_failed"]);
export const isBodyTooLargeError = hasCode<BodyTooLargeError>(["payload_too_large"]);
