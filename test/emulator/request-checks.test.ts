import { ApiVersion, PROBLEM_CONTENT_TYPE, Problem } from "../../schemas";
import { startEmulator } from "../../emulator";
import { basicAuth, call, endpointForm, emulatorForAllTests } from "../support/emulator";

const emulator = emulatorForAllTests({ apiKey: "sk_test_request_checks" });

/** Asserts an RFC 9457 problem with the given status and title; returns it. */
function expectProblem(result: { status: number; headers: Record<string, unknown>; json: unknown }, status: number, title: string) {
  expect(result.status).toBe(status);
  expect(String(result.headers["content-type"])).toContain(PROBLEM_CONTENT_TYPE);
  const problem = Problem.parse(result.json);
  expect(problem).toMatchObject({ status, title });
  expect(typeof problem.type).toBe("string");
  expect(typeof problem.detail).toBe("string");
  return problem;
}

describe("emulator: URL and options", () => {
  it("has a base URL on 127.0.0.1 without a trailing slash", () => {
    expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("uses sk_test_emulator by default", async () => {
    const other = await startEmulator();
    try {
      expect(other.apiKey).toBe("sk_test_emulator");
      const result = await call(other, "/_emulator/endpoints", { auth: basicAuth("sk_test_emulator") });
      expect(result.status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe("emulator: authentication", () => {
  it("rejects a request without credentials with 401 and a Basic challenge", async () => {
    const result = await call(emulator, "/v1/webhooks/endpoints", { auth: null, form: endpointForm() });
    expectProblem(result, 401, "unauthorized");
    expect(result.headers["www-authenticate"]).toBe('Basic realm="messaging"');
  });

  it("rejects a wrong key with 401 and never echoes the key", async () => {
    const result = await call(emulator, "/v1/webhooks/endpoints", {
      auth: basicAuth("sk_test_wrong_key_1234"),
      form: endpointForm(),
    });
    expectProblem(result, 401, "unauthorized");
    expect(result.text).not.toContain("sk_test_wrong_key_1234");
    expect(result.text).not.toContain(emulator.apiKey);
  });

  it("rejects malformed Basic credentials and non-Basic schemes", async () => {
    expectProblem(await call(emulator, "/_emulator/endpoints", { auth: "Basic !!!" }), 401, "unauthorized");
    expectProblem(await call(emulator, "/_emulator/endpoints", { auth: `Bearer ${emulator.apiKey}` }), 401, "unauthorized");
    const noColon = `Basic ${Buffer.from(emulator.apiKey).toString("base64")}`;
    expectProblem(await call(emulator, "/_emulator/endpoints", { auth: noColon }), 401, "unauthorized");
  });

  it("authenticates the /_emulator routes too, the inspector page with a Basic challenge a browser answers", async () => {
    const page = await call(emulator, "/_emulator/", { auth: null });
    expectProblem(page, 401, "unauthorized");
    expect(page.headers["www-authenticate"]).toBe('Basic realm="messaging"');
    const shown = await call(emulator, "/_emulator/");
    expect(shown.status).toBe(200);
    expect(String(shown.headers["content-type"])).toBe("text/html; charset=utf-8");
    expect(shown.text).toContain("<title>messaging emulator</title>");
    expectProblem(await call(emulator, "/_emulator/batches", { auth: null }), 401, "unauthorized");
    expect((await call(emulator, "/_emulator/batches")).status).toBe(200);
  });

  it("creates nothing for rejected requests", async () => {
    const fresh = await startEmulator();
    try {
      await call(fresh, "/v1/webhooks/endpoints", { auth: null, form: endpointForm() });
      await call(fresh, "/v1/webhooks/endpoints", { version: null, form: endpointForm() });
      expect(fresh.endpoints()).toEqual([]);
      expect(fresh.requestCount()).toBe(2);
    } finally {
      await fresh.close();
    }
  });
});

describe("emulator: version header", () => {
  it("rejects a /v1 request without X-Service-Version with 400", async () => {
    const result = await call(emulator, "/v1/message_batches", { version: null, json: { stream: "transactional", messages: [] } });
    const problem = expectProblem(result, 400, "missing_version_header");
    expect(problem.detail).toContain("X-Service-Version");
  });

  it.each(["2024-6-1", "June 1 2024", "2024-02-30", "2024-13-01", "20240601", ""])("rejects %p", async (value) => {
    const result = await call(emulator, "/v1/webhooks/endpoints", { version: value, form: endpointForm() });
    expectProblem(result, 400, value === "" ? "missing_version_header" : "invalid_version_header");
  });

  it("does not require it on /_emulator routes", async () => {
    expect((await call(emulator, "/_emulator/endpoints", { version: null })).status).toBe(200);
  });

  it("accepts exactly the dates the shared ApiVersion schema accepts", async () => {
    for (const value of ["2024-02-29", "2023-02-29", "2024-04-31", "2025-01-15"]) {
      const result = await call(emulator, "/v1/webhooks/endpoints", { version: value, form: endpointForm() });
      expect({ value, status: result.status }).toEqual({ value, status: ApiVersion.safeParse(value).success ? 200 : 400 });
    }
  });
});

describe("emulator: routing and limits", () => {
  it("answers 404 for an unknown route", async () => {
    expectProblem(await call(emulator, "/v1/nothing_here", { method: "GET" }), 404, "not_found");
    expectProblem(await call(emulator, "/v1/webhooks/endpoints/we_123", { method: "GET" }), 404, "not_found");
    expectProblem(await call(emulator, "/", { method: "GET" }), 404, "not_found");
  });

  it("answers 405 with Allow for a wrong method on a known route", async () => {
    const result = await call(emulator, "/v1/webhooks/endpoints", { method: "GET" });
    expectProblem(result, 405, "method_not_allowed");
    expect(result.headers.allow).toBe("POST");
    const batches = await call(emulator, "/_emulator/batches", { method: "DELETE" });
    expectProblem(batches, 405, "method_not_allowed");
    expect(batches.headers.allow).toBe("GET");
  });

  it("answers 413 for a body over 10 MiB", async () => {
    const body = Buffer.alloc(10 * 1024 * 1024 + 1, "a");
    const result = await call(emulator, "/v1/message_batches", { body, headers: { "content-type": "application/json" } });
    expectProblem(result, 413, "payload_too_large");
  });

  it("puts an X-Request-Id on every response, fresh each time", async () => {
    const ok = await call(emulator, "/_emulator/endpoints");
    const rejected = await call(emulator, "/_emulator/endpoints", { auth: null });
    const missing = await call(emulator, "/nope");
    const ids = [ok, rejected, missing].map((r) => r.headers["x-request-id"]);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]+$/);
    expect(new Set(ids).size).toBe(3);
  });

  it("counts /v1 requests, rejected ones included, but not /_emulator ones", async () => {
    const before = emulator.requestCount();
    await call(emulator, "/v1/webhooks/endpoints", { auth: null, form: endpointForm() });
    await call(emulator, "/v1/unknown", { method: "GET" });
    await call(emulator, "/v1/webhooks/endpoints", { form: endpointForm() });
    await call(emulator, "/_emulator/endpoints");
    expect(emulator.requestCount()).toBe(before + 3);
  });
});
