/**
 * The fourth and fifth rings, under the real CLI, by both routes (TypeScript: dynamic resources in
 * an inline program; YAML: the plugin). A stack's identity pinned in its config
 * (`messaging:stackIdentity`) survives what the state loses: every resource removed and declared
 * again, `pulumi state delete --target-dependents` of what held the identity, a plugin upgrade
 * after a killed send, a `pulumi stack rename`, a program moved from TypeScript to YAML, and a
 * batch under an explicit provider. Each re-made create is answered from the service's record: the same endpoint, no message
 * twice. Unpinned, a new identity is said by preview, before any create. On the plugin route a
 * key rotated in the environment is said by preview too, and on both routes a new event type the
 * spec does not name is said, under the endpoint, with the closest named one.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { recipientsOf } from "../support/emulator";
import {
  describeRealEngine,
  expectOk,
  messagesOf,
  opsByName,
  output,
  resourcesNamed,
  useRealEngine,
  type PulumiStack,
  upKilledAfterFirstCall,
} from "../support/real-engine";

const API_KEY = "sk_test_real_survives_51c7";
const PINNED = "team-a-5f0c9e2d41b7";
const NEW_IDENTITY = /this stack's identity is being made now: messaging:stackIdentity is not set/;

type Route = "TypeScript" | "YAML";
const ROUTES: Array<[Route]> = [["TypeScript"], ["YAML"]];

interface ProgramOptions {
  count?: number;
  version?: string;
  events?: string[];
  /** The project's name: `identity-stack`, the TypeScript fixture's, for a program moved between the routes. */
  name?: string;
  /** Under an explicit provider (settings from the environment) rather than the default one. */
  explicitProvider?: boolean;
}

/** The YAML twin of test/fixtures/identity-stack: the endpoint and a batch of `count` messages, each only when listed. */
function yamlProgram(declared: readonly string[], options: ProgramOptions = {}): object {
  const resourceOptions = options.version
    ? { options: { version: options.version } }
    : options.explicitProvider
      ? { options: { provider: "${eu}" } }
      : {};
  const tos = Array.from({ length: options.count ?? 3 }, (_, i) => `+2547123${String(40001 + i).padStart(5, "0")}`);
  const resources: Record<string, object> = {};
  if (declared.includes("payments")) {
    resources.payments = {
      type: "messaging:index:WebhookEndpoint",
      properties: { url: "https://hooks.example.com/identity", events: options.events ?? ["payment.succeeded"] },
      ...resourceOptions,
    };
  }
  if (declared.includes("welcome")) {
    resources.welcome = {
      type: "messaging:index:MessageBatch",
      properties: { stream: "transactional", messages: tos.map((to) => ({ tos: [to], body: "Welcome aboard" })) },
      ...resourceOptions,
    };
  }
  if (options.explicitProvider && declared.length > 0) resources.eu = { type: "pulumi:providers:messaging" };
  const outputs = declared.includes("payments") ? { endpointId: "${payments.id}" } : {};
  return { name: options.name ?? "identity-yaml", runtime: "yaml", resources, outputs };
}

describeRealEngine("what a stack's identity survives", () => {
  const suite = useRealEngine(API_KEY);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-survives-"));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
  const recipients = (): string[] => recipientsOf(suite.emulator.batches());

  async function newStack(route: Route, config: Record<string, string> = {}, env?: Record<string, string>): Promise<PulumiStack> {
    if (route === "TypeScript") return suite.stack("identity-stack", { config, env });
    const projectDir = fs.mkdtempSync(path.join(scratch, "yaml-"));
    fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), JSON.stringify(yamlProgram(["payments", "welcome"])));
    return suite.stack(projectDir, { projectDir, plugin: true, config, env, ...(env ? { service: false } : {}) });
  }

  /** Declares the listed resources (and the program's options) for the next operation. */
  async function declare(stack: PulumiStack, route: Route, declared: string[], options: ProgramOptions = {}) {
    if (route === "TypeScript") {
      await stack.setConfigObject("identity-stack:declare", declared);
      if (options.events) await stack.setConfigObject("identity-stack:events", options.events);
    } else {
      fs.writeFileSync(path.join(stack.projectDir, "Pulumi.yaml"), JSON.stringify(yamlProgram(declared, options)));
    }
  }

  test.each(ROUTES)(
    "%s, pinned: removed and declared again, then deleted from the state: one endpoint, each message once",
    async (route) => {
      const stack = await newStack(route, { "messaging:stackIdentity": PINNED });
      const [endpointsFrom, sentFrom] = [suite.emulator.endpoints().length, recipients().length];

      const first = expectOk(await stack.up());
      expect(messagesOf(first)).not.toMatch(NEW_IDENTITY);
      const endpointId = output(first, "endpointId");

      await declare(stack, route, []);
      expectOk(await stack.up());
      await declare(stack, route, ["payments", "welcome"]);
      const preview = expectOk(await stack.preview());
      expect(messagesOf(preview)).not.toMatch(NEW_IDENTITY);
      const again = expectOk(await stack.up());
      expect(opsByName(again)).toEqual({ payments: ["create"], welcome: ["create"] });
      expect(output(again, "endpointId")).toBe(endpointId);
      expect(messagesOf(again)).toMatch(/1 of 1 calls were answered from the service's record/);

      // What held the identity before it was pinned, deleted with everything that depends on it.
      const state = await stack.exportState();
      const holder = (state.deployment.resources ?? []).find((resource) =>
        route === "TypeScript"
          ? String(resource.urn).endsWith("::pulumi-messaging-stack-identity")
          : String(resource.type) === "pulumi:providers:messaging",
      );
      await stack.cli(["state", "delete", String(holder!.urn), "--target-dependents", "--yes"]);
      const afterDelete = expectOk(await stack.up());
      expect(output(afterDelete, "endpointId")).toBe(endpointId);

      expect(suite.emulator.endpoints().length - endpointsFrom).toBe(1);
      expect(recipients().slice(sentFrom)).toHaveLength(3);
    },
  );

  test.each(ROUTES)(
    "%s, unpinned: a new identity is said by preview, first and when the stack's resources are declared again",
    async (route) => {
      const stack = await newStack(route);
      const calls = suite.emulator.requestCount();
      expect(messagesOf(expectOk(await stack.preview()))).toMatch(NEW_IDENTITY);
      expect(suite.emulator.requestCount()).toBe(calls);
      expectOk(await stack.up());
      // An unchanged stack says nothing.
      expect(messagesOf(expectOk(await stack.preview({ expectNoChanges: true })))).not.toMatch(NEW_IDENTITY);

      await declare(stack, route, []);
      expectOk(await stack.up());
      await declare(stack, route, ["payments", "welcome"]);
      const preview = messagesOf(expectOk(await stack.preview()));
      expect(preview).toMatch(NEW_IDENTITY);
      expect(preview).toMatch(/each such batch's messages go out again.*pulumi config set messaging:stackIdentity [0-9a-f]{32}/s);
    },
  );

  test("YAML, unpinned: a plugin upgrade (a new default provider) is a new identity, said by preview before any create", async () => {
    const stack = await newStack("YAML");
    expectOk(await stack.up());
    const { archive } = await suite.pluginArchive();
    await stack.cli(["plugin", "install", "resource", "messaging", "0.1.1", "--file", archive]);
    await declare(stack, "YAML", ["payments", "welcome"], { version: "0.1.1" });
    const calls = suite.emulator.requestCount();
    const preview = messagesOf(expectOk(await stack.preview()));
    expect(preview).toMatch(NEW_IDENTITY);
    expect(preview).toMatch(/a new plugin version \(a new default provider\)/);
    expect(suite.emulator.requestCount()).toBe(calls);
  });

  test("YAML, pinned: a send killed mid-way, then the plugin upgraded (a new default provider): the rest sent, nothing twice", async () => {
    const stack = await newStack("YAML", { "messaging:stackIdentity": PINNED.replace("team-a", "team-b") });
    await declare(stack, "YAML", ["welcome"], { count: 3001 });
    const from = suite.emulator.batches().length;
    expect((await upKilledAfterFirstCall(stack, suite.emulator, from)).ok).toBe(false);

    // The same archive installed as the next patch release, which the program now asks for.
    const { archive } = await suite.pluginArchive();
    await stack.cli(["plugin", "install", "resource", "messaging", "0.1.1", "--file", archive]);
    await stack.cli(["cancel", "--yes"]);
    await declare(stack, "YAML", ["welcome"], { count: 3001, version: "0.1.1" });
    expect(messagesOf(expectOk(await stack.preview()))).not.toMatch(NEW_IDENTITY);
    expectOk(await stack.up());
    const state = await stack.exportState();
    expect((state.deployment.resources ?? []).map((resource) => String(resource.urn))).toContainEqual(
      expect.stringMatching(/pulumi:providers:messaging::default_0_1_1$/),
    );
    const sent = recipientsOf(suite.emulator.batches().slice(from));
    expect(sent).toHaveLength(3001);
    expect(new Set(sent).size).toBe(3001);
  });

  test.each(ROUTES)(
    "%s, pinned: a send killed, then `pulumi stack rename`, then up; then removed and declared again: one endpoint, each message once",
    async (route) => {
      const stack = await newStack(route, { "messaging:stackIdentity": PINNED.replace("team-a", `renamed-${route.toLowerCase()}`) });
      const [endpointsFrom, sentFrom] = [suite.emulator.endpoints().length, recipients().length];
      expect((await upKilledAfterFirstCall(stack, suite.emulator, suite.emulator.batches().length)).ok).toBe(false);

      // The killed run's lock goes first: a locked stack cannot be renamed.
      await stack.cli(["cancel", "--yes"], { allowFailure: true });
      await stack.rename(`${stack.stackName}-renamed`);
      // The kill may land before or after the engine recorded the batch: only a create it never recorded is redone.
      const recorded = resourcesNamed(await stack.exportState(), "welcome").length > 0;
      const finished = expectOk(await stack.up());
      if (!recorded) expect(messagesOf(finished)).toMatch(/1 of 1 calls were answered from the service's record/);
      const endpointId = output(finished, "endpointId");

      await declare(stack, route, []);
      expectOk(await stack.up());
      await declare(stack, route, ["payments", "welcome"]);
      const again = expectOk(await stack.up());
      // Made again after the rename, unrecorded by the state: the service answers from its record.
      expect(messagesOf(again)).toMatch(/1 of 1 calls were answered from the service's record/);
      expect(output(again, "endpointId")).toBe(endpointId);
      expect(suite.emulator.endpoints().length - endpointsFrom).toBe(1);
      expect(recipients().slice(sentFrom)).toHaveLength(3);
    },
  );

  test("pinned, a program moved from TypeScript to YAML (the plugin): the same endpoint back, the batch answered from the service's record", async () => {
    const stack = await suite.stack("identity-stack", {
      plugin: true,
      config: { "messaging:stackIdentity": PINNED.replace("team-a", "moved") },
    });
    const [endpointsFrom, sentFrom] = [suite.emulator.endpoints().length, recipients().length];
    const endpointId = output(expectOk(await stack.up()), "endpointId");

    stack.useProgram(JSON.stringify(yamlProgram(["payments", "welcome"], { name: "identity-stack" })));
    const moved = expectOk(await stack.up());
    expect(opsByName(moved)).toMatchObject({ payments: expect.arrayContaining(["create"]), welcome: expect.arrayContaining(["create"]) });
    expect(output(moved, "endpointId")).toBe(endpointId);
    expect(messagesOf(moved)).toMatch(/1 of 1 calls were answered from the service's record/);
    expect(suite.emulator.endpoints().length - endpointsFrom).toBe(1);
    expect(recipients().slice(sentFrom)).toHaveLength(3);
  });

  test("unpinned, a program moved from TypeScript to YAML: preview says before any create that a new identity is made, and why", async () => {
    const stack = await suite.stack("identity-stack", { plugin: true });
    expectOk(await stack.up());
    stack.useProgram(JSON.stringify(yamlProgram(["payments", "welcome"], { name: "identity-stack" })));
    const calls = suite.emulator.requestCount();
    const preview = messagesOf(expectOk(await stack.preview()));
    expect(preview).toMatch(NEW_IDENTITY);
    expect(preview).toMatch(/moved here from TypeScript's `pulumi-messaging` classes/);
    expect(preview).toMatch(/each such endpoint is made again and each such batch's messages go out again/);
    expect(suite.emulator.requestCount()).toBe(calls);
  });

  test("YAML, pinned: a batch under an explicit provider, removed and declared again, is answered from the record: each message once", async () => {
    const env = { MESSAGING_API_KEY: API_KEY, MESSAGING_BASE_URL: suite.emulator.url };
    const stack = await newStack("YAML", { "messaging:stackIdentity": PINNED.replace("team-a", "explicit") }, env);
    await declare(stack, "YAML", ["welcome"], { explicitProvider: true });
    const sentFrom = recipients().length;
    expect(messagesOf(expectOk(await stack.preview()))).not.toMatch(NEW_IDENTITY);
    expectOk(await stack.up());

    await declare(stack, "YAML", [], { explicitProvider: true });
    expectOk(await stack.up());
    await declare(stack, "YAML", ["welcome"], { explicitProvider: true });
    expect(messagesOf(expectOk(await stack.up()))).toMatch(/1 of 1 calls were answered from the service's record/);
    expect(recipients().slice(sentFrom)).toHaveLength(3);
  });

  test("YAML: an API key rotated in the environment is said by preview, before any create", async () => {
    const stack = await newStack("YAML", {}, { MESSAGING_API_KEY: API_KEY, MESSAGING_BASE_URL: suite.emulator.url });
    expectOk(await stack.up());
    stack.setEnv({ MESSAGING_API_KEY: "sk_test_rotated_in_env_0000" });
    const calls = suite.emulator.requestCount();
    expect(messagesOf(expectOk(await stack.preview()))).toMatch(
      /the API key \(messaging:apiKey or MESSAGING_API_KEY\) changed since this stack's last deployment/,
    );
    expect(suite.emulator.requestCount()).toBe(calls);
  });

  test.each(ROUTES)(
    "%s: a new event type the spec does not name is said with the closest named one, and subscribed to as written",
    async (route) => {
      const stack = await newStack(route, { "messaging:stackIdentity": PINNED.replace("team-a", `events-${route.toLowerCase()}`) });
      await declare(stack, route, ["payments"], { events: ["payment.succeded"] });
      const preview = expectOk(await stack.preview());
      expect(messagesOf(preview)).toMatch(
        /events\[0\]: "payment\.succeded" is not an event type the service is known to send \(did you mean payment\.succeeded\?\)/,
      );
      // Said under the endpoint, not the stack: the CLI prints it with the resource.
      const said = preview.diagnostics.filter((diagnostic) => /payment\.succeded/.test(diagnostic.message));
      expect(said.map((diagnostic) => diagnostic.urn)).toEqual([expect.stringMatching(/::payments$/)]);
      const up = expectOk(await stack.up());
      const made = suite.emulator.endpoints().find((endpoint) => endpoint.id === output(up, "endpointId"));
      expect(made?.events).toEqual(["payment.succeded"]);
      // Said once: an unchanged endpoint says nothing again.
      expect(messagesOf(expectOk(await stack.preview({ expectNoChanges: true })))).not.toMatch(/is not an event type/);
    },
  );
});
