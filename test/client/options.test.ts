import { MessagingClient } from "../../client";
import { DEFAULT_API_VERSION, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, resolveClientOptions } from "../../client/options";
import { PACKAGE_VERSION, USER_AGENT } from "../../client/version";
import { isConfigurationError } from "../../errors";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const KEY = "sk_test_options_0123456789";
const base = { apiKey: KEY, baseUrl: "http://127.0.0.1:4010" };

function configurationError(options: unknown): Error {
  try {
    new MessagingClient(options as never);
  } catch (error) {
    expect(isConfigurationError(error)).toBe(true);
    return error as Error;
  }
  throw new Error("expected a ConfigurationError");
}

describe("MessagingClient options", () => {
  it("fills in the defaults", () => {
    const resolved = resolveClientOptions(base);
    expect(resolved.apiVersion).toBe(DEFAULT_API_VERSION);
    expect(DEFAULT_API_VERSION).toBe("2024-06-01");
    expect(resolved.timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
    expect(DEFAULT_TIMEOUT_MS).toBe(30_000);
    expect(resolved.maxRetries).toBe(DEFAULT_MAX_RETRIES);
    expect(DEFAULT_MAX_RETRIES).toBe(3);
    expect(resolved.retryPolicy).toEqual({ baseMs: 500, maxMs: 8000, maxRetryAfterMs: 60_000 });
  });

  it("builds Basic auth from the key and an empty password", () => {
    const { authorization } = resolveClientOptions(base);
    expect(authorization).toBe(`Basic ${Buffer.from(`${KEY}:`).toString("base64")}`);
  });

  it("tolerates a trailing slash and keeps a path prefix", () => {
    expect(resolveClientOptions({ ...base, baseUrl: "http://127.0.0.1:4010/" })).toMatchObject({
      origin: "http://127.0.0.1:4010",
      pathPrefix: "",
    });
    expect(resolveClientOptions({ ...base, baseUrl: "https://api.example.com/messaging/" })).toMatchObject({
      origin: "https://api.example.com",
      pathPrefix: "/messaging",
    });
  });

  it.each([
    [{ baseUrl: "http://127.0.0.1" }, /'apiKey' is required/],
    [{ ...base, apiKey: "" }, /'apiKey' is required/],
    [{ ...base, apiKey: "   " }, /'apiKey' is required/],
    [{ apiKey: KEY }, /'baseUrl' is required/],
    [{ ...base, baseUrl: "localhost:4010" }, /'baseUrl' must use http or https/],
    [{ ...base, baseUrl: "not a url" }, /'baseUrl' is not an absolute URL/],
    [{ ...base, baseUrl: "ftp://example.com" }, /'baseUrl' must use http or https, not 'ftp:'/],
    [{ ...base, baseUrl: "http://example.com?x=1" }, /'baseUrl' must not have a query/],
    [{ ...base, baseUrl: "http://127.0.0.1:4010/v1" }, /'baseUrl' must not end in '\/v1', which the client adds to every path/],
    [{ ...base, baseUrl: "https://gateway.example/messaging/V1/" }, /'baseUrl' must not end in '\/v1'/],
    [{ ...base, apiVersion: "2024-6-1" }, /'apiVersion' must be a calendar date written YYYY-MM-DD, such as '2024-06-01'/],
    [{ ...base, apiVersion: "2024-02-30" }, /'apiVersion' must be a calendar date written YYYY-MM-DD/],
    [{ ...base, apiVersion: 20240601 }, /'apiVersion' must be a calendar date written YYYY-MM-DD/],
    [{ ...base, timeoutMs: 0 }, /'timeoutMs' must be a number from 1/],
    [{ ...base, timeoutMs: Number.NaN }, /'timeoutMs'/],
    [{ ...base, maxRetries: -1 }, /'maxRetries' must be an integer from 0/],
    [{ ...base, maxRetries: 1.5 }, /'maxRetries'/],
    [{ ...base, retryBaseDelayMs: -5 }, /'retryBaseDelayMs'/],
    [{ ...base, dispatcher: {} }, /'dispatcher' must be an undici Dispatcher/],
  ])("rejects %p with a ConfigurationError naming the option", (options, message) => {
    expect(configurationError(options).message).toMatch(message);
  });

  it("rejects a key with ':' without printing it", () => {
    const error = configurationError({ ...base, apiKey: "user:secretpart" });
    expect(error.message).toMatch(/'apiKey' must not contain ':'/);
    expect(error.message).not.toContain("secretpart");
  });

  it("never echoes the base URL (a key pasted there by mistake stays hidden), nor URL credentials", () => {
    expect(configurationError({ ...base, baseUrl: KEY }).message).not.toContain(KEY);
    const withCredentials = configurationError({ ...base, baseUrl: `https://user:${KEY}@api.example.com` });
    expect(withCredentials.message).toMatch(/must not contain credentials/);
    expect(withCredentials.message).not.toContain(KEY);
  });

  it("never echoes apiVersion (a key pasted there by mistake stays hidden)", () => {
    const error = configurationError({ ...base, apiVersion: KEY });
    expect(error.message).toMatch(/'apiVersion' must be a calendar date written YYYY-MM-DD/);
    expect(error.message).not.toContain(KEY);
    expect(configurationError({ ...base, apiVersion: "2024-02-30" }).message).not.toContain("2024-02-30");
  });

  it("accepts any calendar date as apiVersion", () => {
    expect(resolveClientOptions({ ...base, apiVersion: "2024-02-29" }).apiVersion).toBe("2024-02-29");
  });

  it("sends a User-Agent with the package's version", () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string };
    expect(PACKAGE_VERSION).toBe(manifest.version);
    expect(USER_AGENT).toMatch(new RegExp(`^pulumi-messaging/${manifest.version.replace(/\./g, "\\.")} node/v\\d+`));
  });
});
