/**
 * When a webhook delivery is retried: pure functions, tested case by case.
 *
 * A failed attempt is retried when the failure may be passing: no answer at all (refused,
 * reset, timed out), 408, 429 or any 5xx. Any other status outside 2xx (3xx, other 4xx) is
 * final: the receiver answered and said no, and asking again would get the same answer.
 */

/** Seconds to wait before each retry: 1, 2, 4, 8 and 16 (five retries, six attempts in all). */
export const DEFAULT_DELIVERY_RETRY_SCHEDULE: readonly number[] = [1, 2, 4, 8, 16];

/** Longest wait the schedule accepts, in seconds (one day). */
export const MAX_RETRY_DELAY_SECONDS = 86_400;

/** What one attempt's answer means for the delivery. */
export type AttemptVerdict = "delivered" | "retryable" | "final";

/**
 * Classifies one attempt by the receiver's status (`null`: no answer, e.g. refused or timed
 * out). 2xx delivered; none, 408, 429 and 5xx retryable; anything else final.
 */
export function classifyAttempt(status: number | null): AttemptVerdict {
  if (status === null) return "retryable";
  if (status >= 200 && status < 300) return "delivered";
  if (status === 408 || status === 429 || status >= 500) return "retryable";
  return "final";
}

/**
 * The wait before retry number `retry` (1 for the first retry), in seconds, or undefined
 * when the schedule has no more retries.
 */
export function retryDelaySeconds(retry: number, schedule: readonly number[]): number | undefined {
  return Number.isInteger(retry) && retry >= 1 ? schedule[retry - 1] : undefined;
}

/**
 * Parses a schedule as written on the command line: seconds separated by commas, fractions
 * allowed (`1,2,4`, `0.05,0.1`); `0` alone means no retries. Each wait is greater than 0 and
 * at most {@link MAX_RETRY_DELAY_SECONDS}.
 * @returns the waits in seconds, or a message saying what is wrong.
 */
export function parseRetrySchedule(text: string): readonly number[] | string {
  const trimmed = text.trim();
  if (trimmed === "0") return [];
  const parts = trimmed.split(",").map((part) => part.trim());
  const delays: number[] = [];
  for (const part of parts) {
    const delay = /^\d+(\.\d+)?$/.test(part) ? Number(part) : NaN;
    if (!(delay > 0 && delay <= MAX_RETRY_DELAY_SECONDS)) {
      return `expected seconds separated by commas, each above 0 and at most ${MAX_RETRY_DELAY_SECONDS} (e.g. 1,2,4), or 0 for no retries; got '${part}'`;
    }
    delays.push(delay);
  }
  return delays;
}

/** Checks a schedule given in code (as `startEmulator`'s option); returns a message when it is invalid. */
export function checkRetrySchedule(schedule: readonly number[]): string | undefined {
  if (!Array.isArray(schedule)) return "deliveryRetrySchedule must be an array of seconds";
  const bad = schedule.findIndex((delay) => typeof delay !== "number" || !(delay > 0 && delay <= MAX_RETRY_DELAY_SECONDS));
  return bad === -1
    ? undefined
    : `deliveryRetrySchedule[${bad}] must be a number of seconds above 0 and at most ${MAX_RETRY_DELAY_SECONDS}`;
}
