/**
 * The shared setup of the WebhookEndpoint engine suites: the packed package installed in a
 * copy of `test/fixtures/endpoint-stack`, and an emulator, for the whole file.
 */
import { startEmulator, type Emulator } from "../../emulator";
import { PackedWorkspace } from "./harness";

export const ENDPOINT = { url: "https://hooks.example.com/payments", events: ["payment.succeeded"], description: "billing" };

export interface EndpointSuite {
  readonly apiKey: string;
  readonly workspace: PackedWorkspace;
  readonly project: string;
  readonly emulator: Emulator;
  /** Stack config: the key, the emulator's URL, the endpoint's inputs and any extra keys. */
  config(endpoint?: object, extra?: Record<string, string>): Record<string, string>;
}

/** Registers the suite's beforeAll/afterAll; the fields are ready inside tests. */
export function useEndpointSuite(apiKey: string): EndpointSuite {
  const suite = { apiKey } as { -readonly [K in keyof EndpointSuite]: EndpointSuite[K] };
  suite.config = (endpoint = ENDPOINT, extra = {}) => ({
    "messaging:apiKey": apiKey,
    "messaging:baseUrl": suite.emulator.url,
    "endpoint-stack:endpoint": JSON.stringify(endpoint),
    ...extra,
  });
  beforeAll(async () => {
    suite.workspace = new PackedWorkspace();
    suite.project = suite.workspace.project("endpoint-stack");
    suite.emulator = await startEmulator({ apiKey });
  });
  afterAll(async () => {
    await suite.emulator?.close();
    suite.workspace?.cleanup();
  });
  return suite;
}
