import type { IncomingMessage, ServerResponse } from "node:http";
import { BodyTooLargeError, ConfigurationError } from "../errors/messaging-error";
import { PROBLEM_CONTENT_TYPE, type ProblemBody } from "../schemas/problem";
import { EventClaims, IN_PROGRESS_RETRY_AFTER_SECONDS, inProgressProblem } from "./event-claims";
import type { ParsedEvent } from "./event-types";
import { nodeHmacProvider } from "./node-hmac";
import type { ParsedPayload } from "./parse-event";
import { readRawBody } from "./raw-body";
import { receiveWebhook } from "./receive-webhook";
import { DEFAULT_MAX_BODY_BYTES, resolveReceiverSettings, type ReceiverOptions } from "./receiver-settings";
import type { VerifiedSignature } from "./signature-check";
import { handlerFailedProblem, logServerErrors, methodNotAllowedProblem, rejectionProblem } from "./webhook-outcome";

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
export interface WebhookHandlerOptions extends ReceiverOptions {
  /** The endpoint's signing secret (e.g. the `secret` output of a `WebhookEndpoint`), or several during a rotation. */
  readonly secret: string | readonly string[];
  /**
   * Called once per verified, parsed event (once per event id with a `replayGuard`). Resolve
   * to answer 204; throw (or reject) to answer 500, so that the sender can deliver again.
   */
  readonly onEvent: (event: ParsedEvent, context: WebhookEventContext) => void | Promise<void>;
  /**
   * Called when a POST is not answered 204, with the error and the status sent. Default:
   * 500s (a failing `onEvent`) are written to `console.error`; rejected requests (4xx) are
   * not logged.
   */
  readonly onError?: (error: unknown, status: number) => void;
}

/**
 * A framework-free webhook receiver: a `node:http` request listener that reads the raw
 * body (capped), verifies the signature, parses the event, asks the replay guard and calls
 * `onEvent`. It shares its core with the Web handler (`createWebhookRequestHandler`), and
 * answers exactly as it does.
 *
 * Answers: 204 handled, or a duplicate the replay guard had recorded as processed; 400 not
 * an event (problem details name the field); 401 signature did not verify (`title` is the
 * reason); 405 not a POST; 413 body too large; 500 `onEvent` failed (the guard then forgets
 * the event, so the redelivery is processed); 503 with `Retry-After` when another delivery
 * of the same event is still being processed (`event_in_progress`: it may yet fail, so it is
 * not answered as done). The guard records an event as processed only once `onEvent` resolved. Error bodies are RFC 9457 problem details and never include a
 * secret or an expected signature.
 *
 * Use it with `http.createServer(handler)`, or mount it in a framework before any body
 * parser (it needs the body unparsed), or after `express.raw()` (it then takes the Buffer in
 * `req.body`). After a parser that left anything else it answers 500 saying so, and logs it.
 *
 * @throws ConfigurationError at creation when no secret is given, a secret is empty, or
 *   `toleranceSeconds`, `maxBodyBytes`, `headerName` or `replayGuard` is invalid.
 */
export function createWebhookHandler(options: WebhookHandlerOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  // Settings are checked now, so a missing secret fails at startup rather than on each delivery.
  const settings = resolveReceiverSettings(options.secret, options);
  const onError = options.onError ?? logServerErrors;
  const report = (error: unknown, status: number) => {
    try {
      onError(error, status);
    } catch {
      // A throwing onError must not keep the response from being sent.
    }
  };
  const claims = new EventClaims(settings.replayGuard);

  return async (req, res) => {
    if (req.method !== "POST") {
      res.setHeader("Allow", "POST");
      send(res, methodNotAllowedProblem(req.method ?? "?"));
      req.resume();
      return;
    }
    let received;
    try {
      received = await receiveWebhook(
        req.headers[settings.headerName],
        () => rawBodyOf(req, settings.maxBodyBytes),
        settings,
        nodeHmacProvider,
      );
    } catch (error) {
      const problem = rejectionProblem(error);
      if (problem.status === 413 && !res.headersSent) res.setHeader("Connection", "close"); // do not read the rest
      report(error, problem.status);
      send(res, problem);
      return;
    }
    const { payload, signature, rawBody } = received;
    const eventId = payload.event.id;
    let claim;
    try {
      claim = await claims.claim(eventId);
    } catch (error) {
      report(error, 500);
      send(res, handlerFailedProblem());
      return;
    }
    if (claim === "in_progress") {
      const problem = inProgressProblem(eventId);
      report(new Error(problem.detail), problem.status);
      if (!res.headersSent) res.setHeader("Retry-After", String(IN_PROGRESS_RETRY_AFTER_SECONDS));
      send(res, problem);
      return;
    }
    if (claim === "claimed") {
      try {
        await options.onEvent(payload.event, { req, rawBody, signature, payload });
      } catch (error) {
        await claims.settle(eventId, false).catch(() => undefined);
        report(error, 500);
        send(res, handlerFailedProblem());
        return;
      }
      try {
        await claims.settle(eventId, true);
      } catch (error) {
        // Processed, but not recorded as such: a 2xx all the same (a redelivery may process it again).
        report(error, 204);
      }
    }
    res.statusCode = 204; // handled, or processed before: the sender may stop
    res.end();
  };
}

// The raw body: from the stream, or as express.raw() (or any parser keeping a Buffer) left it.
async function rawBodyOf(req: IncomingMessage, maxBodyBytes: number): Promise<Buffer> {
  const parsed = (req as IncomingMessage & { body?: unknown }).body;
  if (Buffer.isBuffer(parsed)) {
    if (parsed.length > maxBodyBytes) throw new BodyTooLargeError(maxBodyBytes);
    return parsed;
  }
  if (parsed !== undefined || req.readableEnded) {
    throw new ConfigurationError(
      "the webhook handler needs the raw body, but a body parser has already read it (req.body is " +
        `${parsed === undefined ? "unset" : typeof parsed}): mount the handler before express.json(), ` +
        'or on its route with express.raw({ type: "*/*" })',
    );
  }
  return readRawBody(req, maxBodyBytes);
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
