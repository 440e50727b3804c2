import { isBodyTooLargeError, isConfigurationError, isSignatureVerificationError, isValidationError } from "../../errors/messaging-error";
import { buildProblem, type ProblemBody } from "../../schemas/problem";

/**
 * The answer to a delivery that failed before `onEvent`, the same for the Node and the Web
 * handler: 413 too large, 401 not verified (`title` is the reason), 400 not an event (the
 * problem names the field), 500 for a receiver set-up mistake (so the sender delivers again
 * once it is fixed), 400 for a body that could not be read.
 */
export function rejectionProblem(error: unknown): ProblemBody {
  if (isBodyTooLargeError(error)) return buildProblem(413, "payload_too_large", error.message);
  if (isSignatureVerificationError(error) && error.reason !== "duplicate_event") return buildProblem(401, error.reason, error.message);
  if (isValidationError(error)) return buildProblem(400, "invalid_event", error.message, error.fieldErrors);
  if (isConfigurationError(error)) return buildProblem(500, "handler_failed", error.message);
  return buildProblem(400, "bad_request", "the request body could not be read");
}

/** The answer when `onEvent` failed: 500, so that the sender delivers the event again. */
export function handlerFailedProblem(): ProblemBody {
  return buildProblem(500, "handler_failed", "the event handler failed");
}

/** `Retry-After` of the answer to a delivery whose event is being processed, in seconds. */
export const IN_PROGRESS_RETRY_AFTER_SECONDS = 5;

/** The answer to a delivery of an event being processed: 503, so that the sender delivers it again later. */
export function inProgressProblem(eventId: string): ProblemBody {
  return buildProblem(
    503,
    "event_in_progress",
    `event ${eventId} is being processed by an earlier delivery; deliver it again later (it is not processed yet, and may fail)`,
  );
}

/** The answer to anything but POST. */
export function methodNotAllowedProblem(method: string): ProblemBody {
  return buildProblem(405, "method_not_allowed", `webhooks are delivered with POST, not ${method}`);
}

/**
 * Default `onError`: 500s are logged (something to fix); rejected requests (4xx) are not, nor
 * the 503 to a delivery of an event still in progress (the sender's retry, not a fault).
 */
export function logServerErrors(error: unknown, status: number): void {
  if (status === 500) console.error("pulumi-messaging webhook handler: answered 500:", error);
}
