/**
 * A resource lives in the service it was made in (its `serviceUrl`). Under the real CLI, by both
 * routes: a stack whose base URL moves to another service has its endpoint and batch replaced,
 * said by preview, and made anew there (before, preview said "unchanged" and the new service got
 * nothing); a respelling of the same base URL moves nothing; and a resource moved from one
 * explicit provider to another of another service is replaced too, with no word of a changed API key.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { describeRealEngine, expectOk, messagesOf, opsByName, output, useRealEngine, type PulumiStack } from "../support/real-engine";

const API_KEY = "sk_test_real_moved_8a21";
const MOVED =
  /lives at (\S+); the base URL \(messaging:baseUrl or MESSAGING_BASE_URL\) now reaches (\S+), another service, so it is replaced/;

type Route = "TypeScript" | "YAML";

/** examples/yaml's shape: an endpoint and a 3-message batch, on the default provider or on the one named. */
function yamlProgram(providers: Record<string, { baseUrl: string; apiKey: string }> = {}, use?: string): object {
  const options = use ? { options: { provider: `\${${use}}` } } : {};
  const resources: Record<string, object> = Object.fromEntries(
    Object.entries(providers).map(([name, properties]) => [name, { type: "pulumi:providers:messaging", properties }]),
  );
  resources.payments = {
    type: "messaging:index:WebhookEndpoint",
    properties: { url: "https://hooks.example.com/moved", events: ["payment.succeeded"] },
    ...options,
  };
  resources.welcome = {
    type: "messaging:index:MessageBatch",
    properties: { stream: "transactional", messages: [1, 2, 3].map((i) => ({ tos: [`+25471235000${i}`], body: "Moved" })) },
    ...options,
  };
  return {
    name: "moved-yaml",
    runtime: "yaml",
    resources,
    outputs: { endpointId: "${payments.id}", serviceUrl: "${payments.serviceUrl}" },
  };
}

describeRealEngine("a resource lives in one service", () => {
  const suite = useRealEngine(API_KEY);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-moved-"));
  let production: Emulator;
  beforeAll(async () => {
    production = await startEmulator({ apiKey: API_KEY });
  });
  afterAll(async () => {
    await production?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  async function newStack(route: Route): Promise<PulumiStack> {
    const config = { "messaging:stackIdentity": `moved-${route.toLowerCase()}-7c1e2b` };
    if (route === "TypeScript") return suite.stack("identity-stack", { config });
    const projectDir = fs.mkdtempSync(path.join(scratch, "yaml-"));
    fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), JSON.stringify(yamlProgram()));
    return suite.stack(projectDir, { projectDir, plugin: true, config });
  }

  test.each([["TypeScript"], ["YAML"]] as Array<[Route]>)(
    "%s: moved to another service, both are replaced there, said by preview; respelled, nothing moves",
    async (route) => {
      const stack = await newStack(route);
      const first = expectOk(await stack.up());
      expect(output(first, "serviceUrl")).toBe(suite.emulator.url);

      const [endpointsFrom, batchesFrom, callsFrom] = [
        production.endpoints().length,
        production.batches().length,
        production.requestCount(),
      ];
      await stack.setConfig("messaging:baseUrl", production.url);
      const preview = expectOk(await stack.preview());
      const said = messagesOf(preview);
      expect(said).toMatch(MOVED);
      expect(said.match(new RegExp(MOVED, "g"))).toHaveLength(2);
      expect(said).not.toMatch(/API key .* changed/);
      expect(production.requestCount()).toBe(callsFrom);

      const moved = expectOk(await stack.up());
      expect(opsByName(moved).payments).toContain("create-replacement");
      expect(
        production
          .endpoints()
          .slice(endpointsFrom)
          .map((endpoint) => endpoint.id),
      ).toEqual([output(moved, "endpointId")]);
      expect(
        production
          .batches()
          .slice(batchesFrom)
          .flatMap((batch) => batch.messages),
      ).toHaveLength(3);
      expect(output(moved, "serviceUrl")).toBe(production.url);

      // The same service spelled another way: localhost for 127.0.0.1, a trailing slash.
      const calls = production.requestCount();
      await stack.setConfig("messaging:baseUrl", `${production.url.replace("127.0.0.1", "localhost")}/`);
      const respelled = expectOk(await stack.up());
      expect(opsByName(respelled)).toEqual({ payments: ["same"], welcome: ["same"] });
      expect(messagesOf(respelled)).not.toMatch(MOVED);
      expect(production.requestCount()).toBe(calls);
      // Back at staging for the other route's stack.
      await stack.setConfig("messaging:baseUrl", suite.emulator.url);
    },
  );

  test("YAML: moved from one explicit provider to another of another service, replaced there, with no word of a changed key", async () => {
    // Another service with another key: the engine hands the new provider's DiffConfig the old provider's settings.
    const other = await startEmulator({ apiKey: "sk_test_real_moved_other_3b" });
    try {
      await movedBetweenProviders(other);
    } finally {
      await other.close();
    }
  });

  async function movedBetweenProviders(production: Emulator): Promise<void> {
    const projectDir = fs.mkdtempSync(path.join(scratch, "explicit-"));
    const providers = {
      staging: { baseUrl: suite.emulator.url, apiKey: API_KEY },
      production: { baseUrl: production.url, apiKey: "sk_test_real_moved_other_3b" },
    };
    fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), JSON.stringify(yamlProgram(providers, "staging")));
    const stack = await suite.stack(projectDir, {
      projectDir,
      plugin: true,
      service: false,
      config: { "messaging:stackIdentity": "moved-explicit-4d9a0f" },
    });
    expectOk(await stack.up());
    const before = production.endpoints().length;

    fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), JSON.stringify(yamlProgram(providers, "production")));
    const said = messagesOf(expectOk(await stack.preview()));
    expect(said).toMatch(MOVED);
    expect(said).not.toMatch(/API key .* changed/);
    const moved = expectOk(await stack.up());
    expect(production.endpoints().length - before).toBe(1);
    expect(output(moved, "serviceUrl")).toBe(production.url);
  }
});
