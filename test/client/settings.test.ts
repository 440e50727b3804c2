import { clientFromSettings, connectionSettings, readSetting } from "../../client/settings";
import { isConfigurationError } from "../../errors";

const config = (values: Record<string, string>) => ({ get: (key: string) => values[key] });

function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected an error");
}

test("stack config wins over the environment; the version defaults to 2024-06-01", () => {
  const settings = connectionSettings({
    config: config({ "messaging:apiKey": "from-config", "messaging:baseUrl": "http://config" }),
    env: { MESSAGING_API_KEY: "from-env", MESSAGING_BASE_URL: "http://env" },
  });
  expect(settings).toEqual({ apiKey: "from-config", baseUrl: "http://config", apiVersion: "2024-06-01" });
});

test("the environment is the fallback, for every setting; an empty value counts as unset", () => {
  const env = { MESSAGING_API_KEY: "k", MESSAGING_BASE_URL: "http://env", MESSAGING_API_VERSION: "2025-01-01" };
  expect(connectionSettings({ config: config({ "messaging:apiKey": "" }), env })).toEqual({
    apiKey: "k",
    baseUrl: "http://env",
    apiVersion: "2025-01-01",
  });
  expect(readSetting("apiKey", { env: { MESSAGING_API_KEY: "" } })).toBeUndefined();
});

test("in a Pulumi program a missing key names both ways to set it, and never echoes a value", () => {
  const error = thrown(() => connectionSettings({ config: config({ "messaging:baseUrl": "http://x" }), env: {} }));
  expect(isConfigurationError(error)).toBe(true);
  expect(error.message).toContain("pulumi config set --secret messaging:apiKey");
  expect(error.message).toContain("MESSAGING_API_KEY");
  expect(() => connectionSettings({ config: config({ "messaging:apiKey": "k" }), env: {} })).toThrow(
    /messaging:baseUrl.*MESSAGING_BASE_URL/s,
  );
});

test("outside a program (the CLI) a missing setting names its environment variable only", () => {
  const error = thrown(() => connectionSettings({ env: { MESSAGING_BASE_URL: "http://x" } }));
  expect(isConfigurationError(error)).toBe(true);
  expect(error.message).toMatch(/MESSAGING_API_KEY/);
  expect(error.message).not.toMatch(/pulumi config/);
});

test("an invalid value is the client's error, saying where the settings were read from", () => {
  const error = thrown(() => clientFromSettings({ env: { MESSAGING_API_KEY: "sk_test_secret", MESSAGING_BASE_URL: "ftp://nope" } }));
  expect(isConfigurationError(error)).toBe(true);
  expect(error.message).toMatch(/baseUrl/);
  expect(error.message).toMatch(/MESSAGING_BASE_URL/);
  expect(error.message).not.toContain("sk_test_secret");
});

test("a refused base URL names that variable alone and shows its value (not a secret); one with credentials is not shown", () => {
  const error = thrown(() => clientFromSettings({ env: { MESSAGING_API_KEY: "sk_test_secret", MESSAGING_BASE_URL: "localhost:4010" } }));
  expect(error.message).toContain("(read from MESSAGING_BASE_URL, which is 'localhost:4010')");
  expect(error.message).not.toMatch(/MESSAGING_API_KEY|MESSAGING_API_VERSION/);
  const withCredentials = thrown(() =>
    clientFromSettings({ env: { MESSAGING_API_KEY: "sk_test_secret", MESSAGING_BASE_URL: "https://user:hunter2@example.com" } }),
  );
  expect(withCredentials.message).not.toContain("hunter2");
});

test("a base URL ending in /v1 is a setting error naming MESSAGING_BASE_URL and its value (the client adds /v1 itself)", () => {
  const error = thrown(() =>
    clientFromSettings({ env: { MESSAGING_API_KEY: "sk_test_secret", MESSAGING_BASE_URL: "http://127.0.0.1:4010/v1" } }),
  );
  expect(isConfigurationError(error)).toBe(true);
  expect(error.message).toContain("must not end in '/v1'");
  expect(error.message).toContain("(read from MESSAGING_BASE_URL, which is 'http://127.0.0.1:4010/v1')");
});
