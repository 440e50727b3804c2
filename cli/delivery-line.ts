import type { Delivery } from "../emulator";

/**
 * One delivery attempt as `trigger` and `events resend` print it: the URL, the attempt, the
 * answer and its time, what follows, and the delivery id.
 */
export function describeAttempt(attempt: Delivery): string {
  // What a receiver said when it refused is what its author needs to fix it.
  const said = attempt.outcome !== "delivered" && attempt.responseBody ? ` (${receiverAnswer(attempt.responseBody)})` : "";
  const answer = attempt.status === null ? `no answer (${attempt.error ?? "failed"})` : `HTTP ${attempt.status}${said}`;
  const outcome =
    attempt.outcome === "delivered"
      ? "delivered"
      : attempt.outcome === "retry_scheduled"
        ? `retry at ${attempt.nextAttemptAt}`
        : "failed, no more retries";
  return `  ${attempt.url}  attempt ${attempt.attempt}: ${answer} in ${attempt.durationMs} ms → ${outcome}  (${attempt.id})\n`;
}

/** Most characters of a receiver's answer shown on an attempt's line. */
const ANSWER_CHARS = 160;

// C0 and C1 control characters: a terminal would act on escape sequences in a receiver's answer.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** What a receiver answered, on one line: whitespace runs become one space, control characters "?", cut at 160 characters. */
export function receiverAnswer(text: string): string {
  const line = text.replace(/\s+/g, " ").replace(CONTROL, "?").trim();
  return line.length > ANSWER_CHARS ? `${line.slice(0, ANSWER_CHARS)}…` : line;
}
