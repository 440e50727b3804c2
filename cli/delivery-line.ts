import type { Delivery } from "../emulator";

/**
 * One delivery attempt as `trigger` and `events resend` print it: the URL, the attempt, the
 * answer and its time, what follows, and the delivery id.
 */
export function describeAttempt(attempt: Delivery): string {
  const answer = attempt.status === null ? `no answer (${attempt.error ?? "failed"})` : `HTTP ${attempt.status}`;
  const outcome =
    attempt.outcome === "delivered"
      ? "delivered"
      : attempt.outcome === "retry_scheduled"
        ? `retry at ${attempt.nextAttemptAt}`
        : "failed, no more retries";
  return `  ${attempt.url}  attempt ${attempt.attempt}: ${answer} in ${attempt.durationMs} ms → ${outcome}  (${attempt.id})\n`;
}
