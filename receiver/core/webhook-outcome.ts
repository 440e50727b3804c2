import { isBodyTooLargeError, isConfigurationError, isSignatureVerificationError, isValidationError } from "../../errors/messaging-error";
import { buildProblem, type ProblemBody } from "../../schemas/problem";

/** The answer to a delivery that failed before `onEvent`. A set-up mistake is a 500, so the sender delivers again once it is fixed. */
export function rejectionProblem(error: unknown): ProblemBody {
  if (isBodyTooLargeError(error)) return buildProblem(413, "payload_too_large", error.message);
  if (isSignatureVerificationError(error) && error.reason !== "duplicate_event") return buildProblem(401, error.reason, error.message);
  if (isValidationError(error)) return buildProblem(400, "invalid_event", error.message, error.fieldErrors);
  if (isConfigurationError(error)) return buildProblem(500, "handler_failed", error.message);
  return buildProblem(400, "bad_request", "the request body could not be read");
}

export function handlerFailedProblem(): ProblemBody {
  return buildProblem(500, "handler_failed", "the event handler failed");
}

export const IN_PROGRESS_RETRY_AFTER_SECONDS = 5;

export function inProgressProblem(eventId: string): ProblemBody {
  return buildProblem(
    503,
    "event_in_progress",
    `event ${eventId} is being processed by an earlier delivery; deliver it again later (it is not processed yet, and may fail)`,
  );
}

export function methodNotAllowedProblem(method: string): ProblemBody {
  return buildProblem(405, "method_not_allowed", `webhooks are delivered with POST, not ${method}`);
}

/** Default `onError`: only 500s are something to fix; a 503 for an event in progress is the sender's retry, not a fault. */
export function logServerErrors(error: unknown, status: number): void {
  if (status === 500) console.error("pulumi-messaging webhook handler: answered 500:", error);
}
