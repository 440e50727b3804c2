import type { ProblemBody } from "../../schemas/problem";
import { EventClaims } from "./event-claims";
import type { DeliveryContext, HandlerOptions } from "./handler-options";
import type { HmacProvider } from "./hmac";
import { receiveWebhook } from "./receive-webhook";
import { resolveReceiverSettings } from "./settings";
import {
  handlerFailedProblem,
  IN_PROGRESS_RETRY_AFTER_SECONDS,
  inProgressProblem,
  logServerErrors,
  methodNotAllowedProblem,
  rejectionProblem,
} from "./webhook-outcome";

export interface RequestReader<Incoming, Body extends Uint8Array, Context> {
  readonly hmac: HmacProvider;
  method(request: Incoming): string;
  /** `name` is lower-case. */
  header(request: Incoming, name: string): string | readonly string[] | undefined;
  /** Rejects with `BodyTooLargeError` over `maxBodyBytes`. */
  readBody(request: Incoming, maxBodyBytes: number): Promise<Body>;
  discardBody(request: Incoming): void | Promise<void>;
  context(request: Incoming, delivery: DeliveryContext<Body>): Context;
}

export interface Answer {
  readonly status: number;
  /** Never holds a secret or an expected signature. */
  readonly problem?: ProblemBody;
  readonly headers: Readonly<Record<string, string>>;
}

const NO_CONTENT: Answer = { status: 204, headers: {} };

function problemAnswer(problem: ProblemBody, headers: Record<string, string> = {}): Answer {
  return { status: problem.status, problem, headers };
}

/**
 * The handlers' one flow: verify, parse, claim the event id, call `onEvent`, then record it as processed, or forget it when
 * `onEvent` failed so the redelivery is processed.
 * @throws ConfigurationError at creation, so a missing secret fails at startup rather than on each delivery.
 */
export function createDeliveryHandler<Incoming, Body extends Uint8Array, Context>(
  options: HandlerOptions<Context>,
  reader: RequestReader<Incoming, Body, Context>,
): (request: Incoming) => Promise<Answer> {
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
    const method = reader.method(request);
    if (method !== "POST") {
      await reader.discardBody(request);
      return problemAnswer(methodNotAllowedProblem(method), { Allow: "POST" });
    }
    let received;
    try {
      received = await receiveWebhook(
        reader.header(request, settings.headerName),
        () => reader.readBody(request, settings.maxBodyBytes),
        settings,
        reader.hmac,
      );
    } catch (error) {
      const problem = rejectionProblem(error);
      report(error, problem.status);
      return problemAnswer(problem);
    }
    const { payload, signature, rawBody } = received;
    const eventId = payload.event.id;
    let claim;
    try {
      claim = await claims.claim(eventId);
    } catch (error) {
      report(error, 500);
      return problemAnswer(handlerFailedProblem());
    }
    if (claim === "in_progress") {
      const problem = inProgressProblem(eventId);
      report(new Error(problem.detail), problem.status);
      return problemAnswer(problem, { "Retry-After": String(IN_PROGRESS_RETRY_AFTER_SECONDS) });
    }
    if (claim === "done") return NO_CONTENT;
    try {
      await options.onEvent(payload.event, reader.context(request, { rawBody, signature, payload }));
    } catch (error) {
      await claims.settle(eventId, false).catch(() => undefined);
      report(error, 500);
      return problemAnswer(handlerFailedProblem());
    }
    try {
      await claims.settle(eventId, true);
    } catch (error) {
      // Processed, but not recorded as such: a 2xx all the same (a redelivery may process it again).
      report(error, 204);
    }
    return NO_CONTENT;
  };
}
