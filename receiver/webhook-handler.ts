import type { IncomingMessage, ServerResponse } from "node:http";
import { ConfigurationError, isSignatureVerificationError, isValidationError } from "../errors/messaging-error";
import { SIGNATURE_HEADER } from "../schemas/http";
import { PROBLEM_CONTENT_TYPE, buildProblem, type ProblemBody } from "../schemas/problem";
import { parseWebhookPayload, type ParsedPayload } from "./parse-event";
import { BodyTooLargeError, readRawBody } from "./raw-body";
import { normalizeSecrets, resolveTolerance, verifySignature, type VerifiedSignature } from "./signature";
import type { ParsedEvent } from "./event-types";
import type { ReplayGuard } from "./replay-guard";
import { DEFAULT_MAX_BODY_BYTES } from "./verify-request";

export { DEFAULT_MAX_BODY_BYTES };

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
  /** Signature timestamp tolerance in seconds. Default `DEFAULT_TOLERANCE_SECONDS` (300). */
  readonly toleranceSeconds?: number;
  /** Largest accepted body, in bytes; larger ones get 413. Default {@link DEFAULT_MAX_BODY_BYTES} (1 MiB). */
  readonly maxBodyBytes?: number;
  /**
   * Processes each event once: an event whose id the guard has seen is answered 204 without
   * calling `onEvent` (the sender stops redelivering), and when `onEvent` fails the id is
   * forgotten so that the redelivery is processed. See `MemoryReplayGuard`.
   */
  readonly replayGuard?: ReplayGuard;
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
 * parser (it needs the body unparsed), or after `express.raw()` (it then takes the Buffer in
 * `req.body`). After a parser that left anything else it answers 500 saying so, and logs it.
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
        send(res, buildProblem(405, "method_not_allowed", `webhooks are delivered with POST, not ${req.method}`));
        req.resume();
        return;
      }
      const rawBody = await rawBodyOf(req, maxBodyBytes);
      const signature = verifySignature(rawBody, req.headers[headerName], secrets, { toleranceSeconds });
      const payload = parseWebhookPayload(rawBody);
      const guard = options.replayGuard;
      if (guard !== undefined && (await guard.seen(payload.event.id))) {
        res.statusCode = 204; // processed before: the sender may stop
        res.end();
        return;
      }
      stage = "handle";
      try {
        await options.onEvent(payload.event, { req, rawBody, signature, payload });
      } catch (error) {
        await guard?.forget?.(payload.event.id);
        throw error;
      }
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

/** Thrown when a body parser ran before the handler: the raw bytes are gone. */
class BodyAlreadyReadError extends ConfigurationError {}

// The raw body: from the stream, or as express.raw() (or any parser keeping a Buffer) left it.
async function rawBodyOf(req: IncomingMessage, maxBodyBytes: number): Promise<Buffer> {
  const parsed = (req as IncomingMessage & { body?: unknown }).body;
  if (Buffer.isBuffer(parsed)) {
    if (parsed.length > maxBodyBytes) throw new BodyTooLargeError(maxBodyBytes);
    return parsed;
  }
  if (parsed !== undefined || req.readableEnded) {
    throw new BodyAlreadyReadError(
      "the webhook handler needs the raw body, but a body parser has already read it (req.body is " +
        `${parsed === undefined ? "unset" : typeof parsed}): mount the handler before express.json(), ` +
        'or on its route with express.raw({ type: "*/*" })',
    );
  }
  return readRawBody(req, maxBodyBytes);
}

function toProblem(error: unknown, stage: "read" | "handle"): ProblemBody {
  // Whatever onEvent throws is the receiver's own failure: 500, so the sender delivers again.
  if (stage === "handle") return buildProblem(500, "handler_failed", "the event handler failed");
  if (error instanceof BodyTooLargeError) return buildProblem(413, "payload_too_large", error.message);
  // A setup mistake of the receiver, not of the sender: 500, so the event is delivered again once fixed.
  if (error instanceof BodyAlreadyReadError) return buildProblem(500, "handler_failed", error.message);
  if (isSignatureVerificationError(error) && error.reason !== "duplicate_event") return buildProblem(401, error.reason, error.message);
  if (isValidationError(error)) return buildProblem(400, "invalid_event", error.message, error.fieldErrors);
  return buildProblem(400, "bad_request", "the request body could not be read");
}

function send(res: ServerResponse, body: ProblemBody): void {
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
