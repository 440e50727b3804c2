/**
 * A refused API key or a base URL that is not the service's root: the error of every
 * resource, on either route (both call these runtimes with the stack's config), names the
 * setting to fix, in stack config and in the environment. Against the emulator.
 */
import { startEmulator, type Emulator } from "../../emulator";
import { messageBatch } from "../../provider/kinds/message-batch";
import { webhookEndpoint } from "../../provider/kinds/webhook-endpoint";
import { IDEMPOTENCY_SCOPE } from "../../provider/protocol";
import type { ProviderConfig } from "../../provider/context";

const API_KEY = "sk_test_settings_91ac";
let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ apiKey: API_KEY });
});
afterAll(async () => emulator?.close());

/** Stack config as `configure` hands it over (a new object: one client per configuration). */
const stackConfig = (settings: Record<string, string>): ProviderConfig => ({ get: (key) => settings[key] });
const endpoint = { url: "https://hooks.example.com/a", events: ["payment.succeeded"], format: "basic", [IDEMPOTENCY_SCOPE]: "p/dev/a" };
const batch = { stream: "transactional", messages: [{ tos: ["+254712345678"], body: "hi" }], [IDEMPOTENCY_SCOPE]: "p/dev/b" };

const creates = [
  ["WebhookEndpoint", (config: ProviderConfig) => webhookEndpoint.runtime.create(config, endpoint)],
  ["MessageBatch", (config: ProviderConfig) => messageBatch.runtime.create(config, batch)],
] as const;

describe.each(creates)("%s create", (_kind, create) => {
  test("a wrong API key: the error names messaging:apiKey and MESSAGING_API_KEY, and shows no key", async () => {
    const error = await create(stackConfig({ "messaging:apiKey": "sk_test_wrong", "messaging:baseUrl": emulator.url })).catch((e) => e);
    expect(error.message).toMatch(/HTTP 401.*The service did not accept the API key: check messaging:apiKey \(or MESSAGING_API_KEY\)\./s);
    expect(error.message).not.toContain("sk_test_wrong");
  });

  test("a base URL with a path (the service's root plus /api): the error names messaging:baseUrl and MESSAGING_BASE_URL", async () => {
    const error = await create(stackConfig({ "messaging:apiKey": API_KEY, "messaging:baseUrl": `${emulator.url}/api` })).catch((e) => e);
    expect(error.message).toMatch(
      /HTTP 404.*set messaging:baseUrl \(or MESSAGING_BASE_URL\) to the service's root URL \(without \/v1\)\./s,
    );
  });
});
