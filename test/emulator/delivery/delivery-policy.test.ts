/** The pure retry decisions of webhook deliveries, case by case. No network. */
import { DEFAULT_DELIVERY_RETRY_SCHEDULE, classifyAttempt, parseRetrySchedule, retryDelaySeconds } from "../../../emulator";

describe("classifyAttempt", () => {
  it.each([
    [200, "delivered"],
    [201, "delivered"],
    [204, "delivered"],
    [299, "delivered"],
    [null, "retryable"],
    [408, "retryable"],
    [429, "retryable"],
    [500, "retryable"],
    [502, "retryable"],
    [503, "retryable"],
    [599, "retryable"],
    [100, "final"],
    [301, "final"],
    [304, "final"],
    [400, "final"],
    [401, "final"],
    [403, "final"],
    [404, "final"],
    [409, "final"],
    [410, "final"],
    [422, "final"],
  ] as const)("%p → %s", (status, verdict) => {
    expect(classifyAttempt(status)).toBe(verdict);
  });
});

describe("retryDelaySeconds", () => {
  it("walks the default schedule 1, 2, 4, 8, 16 and then stops", () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelaySeconds(n, DEFAULT_DELIVERY_RETRY_SCHEDULE))).toEqual([1, 2, 4, 8, 16, undefined]);
  });
  it("has nothing for retry 0, fractions or an empty schedule", () => {
    expect(retryDelaySeconds(0, [1])).toBeUndefined();
    expect(retryDelaySeconds(1.5, [1, 2])).toBeUndefined();
    expect(retryDelaySeconds(1, [])).toBeUndefined();
  });
});

describe("parseRetrySchedule", () => {
  it.each([
    ["1,2,4", [1, 2, 4]],
    [" 1, 2 ,4 ", [1, 2, 4]],
    ["0.05,0.1", [0.05, 0.1]],
    ["0", []],
    ["86400", [86400]],
  ])("%p → %p", (text, schedule) => {
    expect(parseRetrySchedule(text)).toEqual(schedule);
  });
  it.each(["", "1,,2", "1,x", "-1", "0,1", "1e3", "86401", "Infinity", "NaN", "1;2"])("refuses %p with a message", (text) => {
    expect(parseRetrySchedule(text)).toEqual(expect.stringContaining("expected seconds separated by commas"));
  });
});
