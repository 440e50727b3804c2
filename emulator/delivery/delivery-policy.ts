/** Seconds to wait before each retry. */
export const DEFAULT_DELIVERY_RETRY_SCHEDULE: readonly number[] = [1, 2, 4, 8, 16];

export const MAX_RETRY_DELAY_SECONDS = 86_400;

export type AttemptVerdict = "delivered" | "retryable" | "final";

/**
 * `null`: no answer. A failure that may pass (none, 408, 429, 5xx) is retryable; any other
 * status is final: the receiver said no, and asking again would get the same answer.
 */
export function classifyAttempt(status: number | null): AttemptVerdict {
  if (status === null) return "retryable";
  if (status >= 200 && status < 300) return "delivered";
  if (status === 408 || status === 429 || status >= 500) return "retryable";
  return "final";
}

/** `retry` from 1; undefined when the schedule has no more retries. */
export function retryDelaySeconds(retry: number, schedule: readonly number[]): number | undefined {
  return Number.isInteger(retry) && retry >= 1 ? schedule[retry - 1] : undefined;
}

/** As written on the command line (`1,2,4`; `0` alone: no retries); a string says what is wrong. */
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

export function checkRetrySchedule(schedule: readonly number[]): string | undefined {
  if (!Array.isArray(schedule)) return "deliveryRetrySchedule must be an array of seconds";
  const bad = schedule.findIndex((delay) => typeof delay !== "number" || !(delay > 0 && delay <= MAX_RETRY_DELAY_SECONDS));
  return bad === -1
    ? undefined
    : `deliveryRetrySchedule[${bad}] must be a number of seconds above 0 and at most ${MAX_RETRY_DELAY_SECONDS}`;
}
