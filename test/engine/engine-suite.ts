/**
 * The shared setup of the engine-level suites: the packed package in a scratch workspace,
 * optionally one fixture project installed from it, and an emulator, for the whole file;
 * all closed after the file's last test, whether it passed or not.
 */
import { startEmulator, type Emulator } from "../../emulator";
import { PackedWorkspace } from "./harness";

/** The inputs `test/fixtures/endpoint-stack` reads from its `endpoint` config by default in these tests. */
export const ENDPOINT = { url: "https://hooks.example.com/payments", events: ["payment.succeeded"], description: "billing" };

export interface EngineSuite {
  readonly apiKey: string;
  readonly workspace: PackedWorkspace;
  /** The fixture project, when one was named. */
  readonly project: string;
  readonly emulator: Emulator;
  /** Stack config reaching the emulator (`messaging:apiKey`, `messaging:baseUrl`), plus `extra`. */
  serviceConfig(extra?: Record<string, string>): Record<string, string>;
  /** The service config for `test/fixtures/endpoint-stack` with its `endpoint` input (default {@link ENDPOINT}), plus `extra`. */
  endpointConfig(endpoint?: object, extra?: Record<string, string>): Record<string, string>;
}

/** Registers the file's beforeAll/afterAll; the fields are ready inside tests. */
export function useEngineSuite(apiKey: string, fixture?: string): EngineSuite {
  const suite = { apiKey } as { -readonly [K in keyof EngineSuite]: EngineSuite[K] };
  suite.serviceConfig = (extra = {}) => ({ "messaging:apiKey": apiKey, "messaging:baseUrl": suite.emulator.url, ...extra });
  suite.endpointConfig = (endpoint = ENDPOINT, extra = {}) =>
    suite.serviceConfig({ "endpoint-stack:endpoint": JSON.stringify(endpoint), ...extra });
  beforeAll(async () => {
    suite.workspace = new PackedWorkspace();
    if (fixture) suite.project = suite.workspace.project(fixture);
    suite.emulator = await startEmulator({ apiKey });
  });
  afterAll(async () => {
    await suite.emulator?.close();
    suite.workspace?.cleanup();
  });
  return suite;
}
