import { resolveSettings } from "../../provider/settings";
import { isConfigurationError } from "../../errors";

const config = (values: Record<string, string>) => ({ get: (key: string) => values[key] });

test("stack config wins over the environment; the version defaults to 2024-06-01", () => {
  const settings = resolveSettings(config({ "messaging:apiKey": "from-config", "messaging:baseUrl": "http://config" }), {
    MESSAGING_API_KEY: "from-env",
    MESSAGING_BASE_URL: "http://env",
  });
  expect(settings).toEqual({ apiKey: "from-config", baseUrl: "http://config", apiVersion: "2024-06-01" });
});

test("the environment is the fallback, for every setting", () => {
  const settings = resolveSettings(undefined, {
    MESSAGING_API_KEY: "k",
    MESSAGING_BASE_URL: "http://env",
    MESSAGING_API_VERSION: "2025-01-01",
  });
  expect(settings).toEqual({ apiKey: "k", baseUrl: "http://env", apiVersion: "2025-01-01" });
});

test("a missing key names both ways to set it", () => {
  let error: unknown;
  try {
    resolveSettings(config({ "messaging:baseUrl": "http://x" }), {});
  } catch (caught) {
    error = caught;
  }
  expect(isConfigurationError(error)).toBe(true);
  expect((error as Error).message).toContain("pulumi config set --secret messaging:apiKey");
  expect((error as Error).message).toContain("MESSAGING_API_KEY");
});

test("a missing base URL names both ways to set it", () => {
  expect(() => resolveSettings(config({ "messaging:apiKey": "k" }), {})).toThrow(/messaging:baseUrl.*MESSAGING_BASE_URL/s);
});
