import {
  DEFAULT_RETRY_POLICY,
  backoffDelayMs,
  isRetryableOutcome,
  isRetryableResponse,
  isRetryableStatus,
  networkErrorCode,
  parseRetryAfter,
  retryDelayMs,
  shouldRetry,
  type AttemptOutcome,
} from "../../client/retry";

describe("isRetryableStatus", () => {
  it.each([408, 429, 500, 502, 503, 504, 599])("retries %i", (status) => {
    expect(isRetryableStatus(status)).toBe(true);
  });
  it.each([200, 201, 204, 301, 400, 401, 403, 404, 409, 422])("does not retry %i", (status) => {
    expect(isRetryableStatus(status)).toBe(false);
  });
});

describe("isRetryableResponse", () => {
  it("retries a 409 whose problem title is idempotency_key_in_use (same key, first request still in progress)", () => {
    expect(isRetryableResponse(409, "idempotency_key_in_use")).toBe(true);
  });

  it.each([undefined, "conflict", "idempotency_key_reused", "IDEMPOTENCY_KEY_IN_USE", ""])("keeps a 409 titled %p final", (title) => {
    expect(isRetryableResponse(409, title)).toBe(false);
  });

  it.each([400, 404, 422])("does not retry %i because of the title", (status) => {
    expect(isRetryableResponse(status, "idempotency_key_in_use")).toBe(false);
  });

  it.each([408, 429, 500, 503])("retries %i whatever the title", (status) => {
    expect(isRetryableResponse(status, undefined)).toBe(true);
    expect(isRetryableResponse(status, "anything")).toBe(true);
  });
});

describe("shouldRetry", () => {
  const response = (status: number): AttemptOutcome => ({ kind: "response", status });

  it.each([400, 401, 403, 404, 409, 422])("never retries %i, even on the first attempt", (status) => {
    expect(shouldRetry(response(status), 1, 3)).toBe(false);
  });

  it.each([200, 201, 204])("never retries a success (%i)", (status) => {
    expect(shouldRetry(response(status), 1, 3)).toBe(false);
  });

  it.each([408, 429, 500, 503])("retries %i while retries remain", (status) => {
    expect(shouldRetry(response(status), 1, 3)).toBe(true);
    expect(shouldRetry(response(status), 3, 3)).toBe(true);
  });

  it("retries 409 idempotency_key_in_use while retries remain, and only that 409", () => {
    const inUse: AttemptOutcome = { kind: "response", status: 409, problemTitle: "idempotency_key_in_use" };
    expect(shouldRetry(inUse, 1, 3)).toBe(true);
    expect(shouldRetry(inUse, 3, 3)).toBe(true);
    expect(shouldRetry(inUse, 4, 3)).toBe(false);
    expect(shouldRetry(inUse, 1, 0)).toBe(false);
    expect(shouldRetry({ kind: "response", status: 409, problemTitle: "conflict" }, 1, 3)).toBe(false);
    expect(shouldRetry({ kind: "response", status: 409 }, 1, 3)).toBe(false);
  });

  it("stops after maxRetries retries: attempt 4 of maxRetries 3 is the last", () => {
    expect(shouldRetry(response(503), 4, 3)).toBe(false);
  });

  it("does not retry at all with maxRetries 0", () => {
    expect(shouldRetry(response(503), 1, 0)).toBe(false);
    expect(shouldRetry({ kind: "timeout" }, 1, 0)).toBe(false);
  });

  it("retries timeouts", () => {
    expect(shouldRetry({ kind: "timeout" }, 2, 3)).toBe(true);
  });

  it.each(["ECONNRESET", "ECONNREFUSED", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT", "EAI_AGAIN"])(
    "retries the network error %s",
    (code) => {
      expect(shouldRetry({ kind: "network", code }, 1, 3)).toBe(true);
    },
  );

  it.each(["ENOTFOUND", "UND_ERR_CLOSED", "UND_ERR_DESTROYED", "UND_ERR_INVALID_ARG"])("does not retry %s", (code) => {
    expect(shouldRetry({ kind: "network", code }, 1, 3)).toBe(false);
  });

  it("does not retry a network error without a code", () => {
    expect(isRetryableOutcome({ kind: "network" })).toBe(false);
  });
});

describe("networkErrorCode", () => {
  it("reads the code of the error itself", () => {
    expect(networkErrorCode(Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }))).toBe("UND_ERR_SOCKET");
  });
  it("follows the cause chain (fetch wraps socket errors in a TypeError)", () => {
    const socket = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
    expect(networkErrorCode(new TypeError("fetch failed", { cause: socket }))).toBe("ECONNRESET");
  });
  it("is undefined for errors without a code, and for non-errors", () => {
    expect(networkErrorCode(new Error("boom"))).toBeUndefined();
    expect(networkErrorCode("ECONNRESET")).toBeUndefined();
    expect(networkErrorCode(undefined)).toBeUndefined();
  });
});

describe("backoffDelayMs (full jitter)", () => {
  const bounds = { baseMs: 100, maxMs: 1000 };

  it("draws from [0, base) before the first retry", () => {
    expect(backoffDelayMs(1, bounds, () => 0)).toBe(0);
    expect(backoffDelayMs(1, bounds, () => 0.5)).toBe(50);
    expect(backoffDelayMs(1, bounds, () => 0.999)).toBe(99);
  });

  it("doubles the ceiling each attempt", () => {
    expect(backoffDelayMs(2, bounds, () => 0.5)).toBe(100);
    expect(backoffDelayMs(3, bounds, () => 0.5)).toBe(200);
    expect(backoffDelayMs(4, bounds, () => 0.5)).toBe(400);
  });

  it("caps the ceiling at maxMs", () => {
    expect(backoffDelayMs(5, bounds, () => 0.5)).toBe(500); // 1600 capped to 1000
    expect(backoffDelayMs(10, bounds, () => 0.999)).toBe(999);
  });

  it("stays finite for absurd attempt numbers", () => {
    expect(backoffDelayMs(5000, bounds, () => 0.5)).toBe(500);
  });

  it("is an integer and never negative, whatever the random source returns", () => {
    expect(backoffDelayMs(2, bounds, () => 0.123456)).toBe(24);
    expect(backoffDelayMs(2, bounds, () => -1)).toBe(0);
    expect(backoffDelayMs(2, bounds, () => 7)).toBe(200);
  });

  it("has 500 ms, 8 s defaults", () => {
    expect(backoffDelayMs(1, DEFAULT_RETRY_POLICY, () => 0.5)).toBe(250);
    expect(backoffDelayMs(20, DEFAULT_RETRY_POLICY, () => 0.5)).toBe(4000);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2024-06-01T12:00:00Z");

  it("reads delay-seconds", () => {
    expect(parseRetryAfter("1", now)).toBe(1000);
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter(" 3 ", now)).toBe(3000);
  });

  it("tolerates fractional seconds", () => {
    expect(parseRetryAfter("1.5", now)).toBe(1500);
  });

  it("reads an IMF-fixdate relative to now", () => {
    expect(parseRetryAfter("Sat, 01 Jun 2024 12:00:30 GMT", now)).toBe(30_000);
  });

  it("reads the obsolete RFC 850 date form", () => {
    expect(parseRetryAfter("Saturday, 01-Jun-24 12:00:05 GMT", now)).toBe(5000);
  });

  it("turns a date in the past into 0", () => {
    expect(parseRetryAfter("Sat, 01 Jun 2024 11:59:00 GMT", now)).toBe(0);
  });

  it("takes the first of repeated headers", () => {
    expect(parseRetryAfter(["2", "9"], now)).toBe(2000);
  });

  it.each([undefined, "", "soon", "-1", "1e3", "0x10", "2024-06-01", "Sat, 01 Jun 2024 12:00:30"])("ignores %p", (header) => {
    expect(parseRetryAfter(header, now)).toBeUndefined();
  });
});

describe("retryDelayMs", () => {
  const policy = { baseMs: 100, maxMs: 1000, maxRetryAfterMs: 5000 };

  it("uses Retry-After when the service sent one, whatever the jitter", () => {
    expect(retryDelayMs(1, 2000, policy, () => 0)).toBe(2000);
    expect(retryDelayMs(3, 0, policy, () => 0.9)).toBe(0);
  });

  it("cuts a long Retry-After to maxRetryAfterMs", () => {
    expect(retryDelayMs(1, 3_600_000, policy, () => 0.5)).toBe(5000);
  });

  it("honours the Retry-After: 1 of a 409 idempotency_key_in_use like any other", () => {
    expect(retryDelayMs(1, parseRetryAfter("1", 0), policy, () => 0.99)).toBe(1000);
  });

  it("falls back to jittered backoff without Retry-After", () => {
    expect(retryDelayMs(2, undefined, policy, () => 0.5)).toBe(100);
  });

  it("caps Retry-After at 60 s by default", () => {
    expect(retryDelayMs(1, 120_000, DEFAULT_RETRY_POLICY, () => 0)).toBe(60_000);
  });
});
