import type { IncomingMessage, ServerResponse } from "node:http";
import {
  ConfigurationError, isSignatureVerificationError, isValidationError,
} from "../errors/messaging-error";
import { SIGNATURE_HEADER } from "../schemas/http";
import { PROBLEM_CONTENT_TYPE, type Problem } from "../schemas/problem";
import { parseWebhookPayload, type ParsedPayload } from "./parse-event";
import { BodyTooLargeError, readRawBody } from "./raw-body";
import {
  DEFAULT_TOLERANCE_SECONDS, normalizeSecrets, resolveTolerance, verifySignature,
  type VerifiedSignature,
} from "./signature";
import type { ParsedEvent } from "./event-types";

/** Default cap on a webhook body: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** What `onEvent` gets besides the event. */
export interface WebhookEventContext {
  /** The incoming request (headers, URL); its body has been consumed. */
  readonly req: IncomingMessage;
  /** The body exactly as received and verified. */
  readonly rawBody: Buffer;
  /** The signed timestamp and which secret matched. */
  readonly signature: VerifiedSignature;
  /** The format the event came in and, for CloudEvents, the envelope's attributes. */
  readonly payload: ParsedPayload;
}

/** Options of {@link createWebhookHandler}. */
export interface WebhookHandlerOptions {
  /** The endpoint's signing secret (e.g. the `secret` output of a `WebhookEndpoint`), or several during a rotation. */
  readonly secret: string | readonly string[];
  /**
   * Called once per verified, parsed event. Resolve to answer 204; throw (or reject) to
   * answer 500, so that the sender can deliver again.
   */
  readonly onEvent: (event: ParsedEvent, context: WebhookEventContext) => void | Promise<void>;
  /** Header carrying the signature, any case. Default {@link SIGNATURE_HEADER} (`x-service-signature`). */
  readonly headerName?: string;
  /** Signature timestamp tolerance in seconds. Default {@link DEFAULT_TOLERANCE_SECONDS} (300). */
  readonly toleranceSeconds?: number;
  /** Largest accepted body, in bytes; larger ones get 413. Default {@link DEFAULT_MAX_BODY_BYTES} (1 MiB). */
  readonly maxBodyBytes?: number;
  /**
   * Called when a POST is not answered 204, with the error and the status sent. Default:
   * 500s (a failing `onEvent`) are written to `console.error`; rejected requests (4xx) are
   * not logged.
   */
  readonly onError?: (error: unknown, status: number) => void;
}

/**
 * A framework-free webhook receiver: a `node:http` request listener that reads the raw
 * body (capped), verifies the signature, parses the event and calls `onEvent`.
 *
 * Answers: 204 handled; 400 not an event (problem details name the field); 401 signature
 * did not verify (`title` is the reason); 405 not a POST; 413 body too large; 500
 * `onEvent` failed. Error bodies are RFC 9457 problem
 * details and never include a secret or an expected signature.
 *
 * Use it with `http.createServer(handler)`, or mount it in a framework before any body
 * parser (it needs the body unparsed).
 *
 * @throws ConfigurationError at creation when no secret is given, a secret is empty, or
 *   `toleranceSeconds`, `maxBodyBytes` or `headerName` is invalid.
 */
export function createWebhookHandler(options: WebhookHandlerOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  // Settings are checked now, so a missing secret fails at startup rather than on each delivery.
  const secrets = normalizeSecrets(options.secret);
  const toleranceSeconds = resolveTolerance(options.toleranceSeconds);
  const headerName = (options.headerName ?? SIGNATURE_HEADER).toLowerCase();
  if (headerName.trim() === "") throw new ConfigurationError("headerName must not be empty");
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) {
    throw new ConfigurationError("maxBodyBytes must be a positive whole number of bytes");
  }
  const onError = options.onError ?? logServerErrors;

  return async (req, res) => {
    let stage: "read" | "handle" = "read";
    try {
      if (req.method !== "POST") {
        res.setHeader("Allow", "POST");
        send(res, problem(405, "method_not_allowed", `webhooks are delivered with POST, not ${req.method}`));
        req.resume();
        return;
      }
      const rawBody = await readRawBody(req, maxBodyBytes);
      const signature = verifySignature(rawBody, req.headers[headerName], secrets, { toleranceSeconds });
      const payload = parseWebhookPayload(rawBody);
      stage = "handle";
      await options.onEvent(payload.event, { req, rawBody, signature, payload });
      res.statusCode = 204;
      res.end();
    } catch (error) {
      const answer = toProblem(error, stage);
      if (answer.status === 413 && !res.headersSent) res.setHeader("Connection", "close"); // do not read the rest
      safely(() => onError(error, answer.status));
      send(res, answer);
    }
  };
}

function toProblem(error: unknown, stage: "read" | "handle"): Problem & { status: number } {
  // Whatever onEvent throws is the receiver's own failure: 500, so the sender delivers again.
  if (stage === "handle") return problem(500, "handler_failed", "the event handler failed");
  if (error instanceof BodyTooLargeError) return problem(413, "payload_too_large", error.message);
  if (isSignatureVerificationError(error)) return problem(401, error.reason, error.message);
  if (isValidationError(error)) return { ...problem(400, "invalid_event", error.message), errors: error.fieldErrors };
  return problem(400, "bad_request", "the request body could not be read");
}

function problem(status: number, title: string, detail: string) {
  return { type: "about:blank", title, status, detail };
}

function send(res: ServerResponse, body: Problem & { status: number }): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.statusCode = body.status;
  res.setHeader("Content-Type", PROBLEM_CONTENT_TYPE);
  res.end(JSON.stringify(body));
}

function logServerErrors(error: unknown, status: number): void {
  if (status >= 500) console.error("pulumi-messaging webhook handler: answered 500:", error);
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // A throwing onError must not keep the response from being sent.
  }
}
