import { PROBLEM_CONTENT_TYPE, type ProblemBody } from "../schemas/problem";
import { EventClaims, IN_PROGRESS_RETRY_AFTER_SECONDS, inProgressProblem } from "./event-claims";
import type { ParsedEvent } from "./event-types";
import type { ParsedPayload } from "./parse-event";
import { receiveWebhook } from "./receive-webhook";
import { resolveReceiverSettings, type ReceiverOptions } from "./receiver-settings";
import { assertWebRequest, readRequestBody } from "./request-body";
import type { VerifiedSignature } from "./signature-check";
import { webCryptoHmacProvider } from "./web-crypto-hmac";
import { handlerFailedProblem, logServerErrors, methodNotAllowedProblem, rejectionProblem } from "./webhook-outcome";

/** What `onEvent` gets besides the event (Web handler). */
export interface WebhookRequestContext {
  /** The incoming request (headers, URL); its body has been consumed. */
  readonly request: Request;
  /** The body exactly as received and verified. */
  readonly rawBody: Uint8Array;
  /** The signed timestamp and which secret matched. */
  readonly signature: VerifiedSignature;
  /** The format the event came in and, for CloudEvents, the envelope's attributes. */
  readonly payload: ParsedPayload;
}

/** Options of {@link createWebhookRequestHandler}. */
export interface WebhookRequestHandlerOptions extends ReceiverOptions {
  /** The endpoint's signing secret (e.g. the `secret` output of a `WebhookEndpoint`), or several during a rotation. */
  readonly secret: string | readonly string[];
  /**
   * Called once per verified, parsed event (once per event id with a `replayGuard`). Resolve
   * to answer 204; throw (or reject) to answer 500, so that the sender delivers again.
   */
  readonly onEvent: (event: ParsedEvent, context: WebhookRequestContext) => void | Promise<void>;
  /**
   * Called when a request is not answered 204, with the error and the status sent. Default:
   * 500s are written to `console.error`; rejected requests (4xx) are not logged.
   */
  readonly onError?: (error: unknown, status: number) => void;
}

function problemResponse(problem: ProblemBody, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problem), { status: problem.status, headers: { "content-type": PROBLEM_CONTENT_TYPE, ...headers } });
}

/**
 * A webhook receiver for any runtime with standard `Request`/`Response` and Web Crypto
 * (Node ≥ 20, Deno, Bun, Cloudflare Workers, Next.js route handlers): a
 * `(request) => Promise<Response>` that reads the raw body (capped), verifies the signature,
 * parses the event, asks the replay guard and calls `onEvent`.
 *
 * Answers exactly as the Node handler (`createWebhookHandler`) does: 204 handled, or a
 * duplicate the replay guard had recorded as processed; 400 not an event (problem details
 * name the field); 401 signature did not verify (`title` is the reason); 405 not a POST; 413
 * body too large; 500 `onEvent` failed (the event is then forgotten by the guard, so the
 * redelivery is processed) or the body had already been read; 503 with `Retry-After` when
 * another delivery of the same event is still being processed (`event_in_progress`). Error bodies are RFC 9457 problem details
 * and never include a secret or an expected signature.
 *
 * @example
 * ```ts
 * const handle = createWebhookRequestHandler({ secret: env.SIGNING_SECRET, onEvent: (event) => … });
 * export default { fetch: handle };             // Cloudflare Workers, Bun
 * export const POST = handle;                   // Next.js route handler
 * ```
 * @throws ConfigurationError at creation when no secret is given, a secret is empty, or an
 *   option is invalid; the returned function rejects only for an argument that is not a Request.
 */
export function createWebhookRequestHandler(options: WebhookRequestHandlerOptions): (request: Request) => Promise<Response> {
  // Checked now, so that a missing secret fails at startup rather than on each delivery.
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

  return async (request) => {
    assertWebRequest(request, "the webhook request handler");
    if (request.method !== "POST") {
      await request.body?.cancel().catch(() => undefined);
      return problemResponse(methodNotAllowedProblem(request.method), { allow: "POST" });
    }
    let received;
    try {
      received = await receiveWebhook(
        request.headers.get(settings.headerName) ?? undefined,
        () => readRequestBody(request, settings.maxBodyBytes, "the webhook request handler"),
        settings,
        webCryptoHmacProvider,
      );
    } catch (error) {
      const problem = rejectionProblem(error);
      report(error, problem.status);
      return problemResponse(problem);
    }
    const { payload, signature, rawBody } = received;
    const eventId = payload.event.id;
    let claim;
    try {
      claim = await claims.claim(eventId);
    } catch (error) {
      report(error, 500);
      return problemResponse(handlerFailedProblem());
    }
    if (claim === "in_progress") {
      const problem = inProgressProblem(eventId);
      report(new Error(problem.detail), problem.status);
      return problemResponse(problem, { "retry-after": String(IN_PROGRESS_RETRY_AFTER_SECONDS) });
    }
    if (claim === "done") return new Response(null, { status: 204 }); // processed before: the sender may stop
    try {
      await options.onEvent(payload.event, { request, rawBody, signature, payload });
    } catch (error) {
      await claims.settle(eventId, false).catch(() => undefined);
      report(error, 500);
      return problemResponse(handlerFailedProblem());
    }
    try {
      await claims.settle(eventId, true);
    } catch (error) {
      // Processed, but not recorded as such: a 2xx all the same (a redelivery may process it again).
      report(error, 204);
    }
    return new Response(null, { status: 204 });
  };
}
