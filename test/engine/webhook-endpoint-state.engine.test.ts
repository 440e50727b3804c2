/**
 * WebhookEndpoint through the real engine path: configuration and what the state holds,
 * state across installations, and creates whose answers are lost or unreadable.
 */
import { isSecretWrapper } from "../../engine/secrets";
import { FakeService, startHalfMadeEndpointService } from "./fake-services";
import { ENDPOINT, useEngineSuite } from "./engine-suite";
import { dynamicResources, expectOk, opsByName, plain, resourceNamed, stateOf, stepsOf, withoutMessagingEnv } from "./harness";

const API_KEY = "sk_test_engine_77d1e0";

const suite = useEngineSuite(API_KEY, "endpoint-stack");
const config = suite.endpointConfig;

describe("configuration", () => {
  test("the key and base URL can come from the environment", async () => {
    const stack = suite.workspace.stack(suite.project, {
      config: { "endpoint-stack:endpoint": JSON.stringify(ENDPOINT) },
      env: withoutMessagingEnv({ MESSAGING_API_KEY: API_KEY, MESSAGING_BASE_URL: suite.emulator.url }),
    });
    const result = expectOk(await stack.up());
    expect(result.outputs.id).toMatch(/^we_/);
    expect(stack.stateText()).not.toContain(API_KEY);
    expect(result.diagnostics.map((d) => d.message).join("\n")).not.toMatch(/apiKey/);
  });

  test("the whole stack config is the provider's state entry: a --secret key is stored encrypted", async () => {
    const stack = suite.workspace.stack(suite.project, { config: config() });
    const result = expectOk(await stack.up());
    const provider = stateOf(stack).resources.find((resource) => resource.type === "pulumi:providers:pulumi-nodejs")!;
    expect(provider.urn).toMatch(/::pulumi:providers:pulumi-nodejs::default$/);
    expect(plain(provider.inputs["messaging:apiKey"])).toBe(API_KEY);
    expect(provider.inputs["messaging:apiKey"]).not.toBe(API_KEY);
    expect(provider.inputs["messaging:baseUrl"]).toBe(suite.emulator.url);
    expect(stack.stateText()).not.toContain(API_KEY);
    expect(resourceNamed(stack, "main").provider).toBe(`${provider.urn}::${provider.id}`);
    expect(result.diagnostics.map((d) => d.message).join("\n")).not.toMatch(/apiKey/);
  });

  test("a key set without --secret is saved in plain text there, and each run of the program warns once", async () => {
    const stack = suite.workspace.stack(suite.project, {
      config: config(ENDPOINT, { "endpoint-stack:dependent": "true" }),
      secretKeys: [],
    });
    const result = expectOk(await stack.up());
    expect(stack.stateText()).toContain(API_KEY);
    const warnings = result.diagnostics.filter((d) => d.severity === "warning" && /apiKey/.test(d.message)).map((d) => d.message);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /messaging:apiKey is set in plain text.*pulumi:providers:pulumi-nodejs::default.*pulumi config set --secret messaging:apiKey/,
    );
    expect(warnings[0]).not.toContain(API_KEY);
  });

  test("stack config wins over the environment", async () => {
    const stack = suite.workspace.stack(suite.project, {
      config: config(),
      env: withoutMessagingEnv({ MESSAGING_API_KEY: "sk_wrong_env_key", MESSAGING_BASE_URL: "http://127.0.0.1:9" }),
    });
    expect(expectOk(await stack.up()).outputs.id).toMatch(/^we_/);
  });

  test("a missing key fails, naming both ways to set it; preview needs no key", async () => {
    const stack = suite.workspace.stack(suite.project, {
      config: { "messaging:baseUrl": suite.emulator.url, "endpoint-stack:endpoint": JSON.stringify(ENDPOINT) },
    });
    expectOk(await stack.preview());
    const result = await stack.up();
    expect(result.ok).toBe(false);
    const errors = result.errors.join("\n");
    expect(errors).toContain("messaging:apiKey");
    expect(errors).toContain("MESSAGING_API_KEY");
    expect(dynamicResources(stack)).toEqual([]);
  });

  test("a wrong key fails with an authentication error that does not echo the key", async () => {
    const wrongKey = "sk_live_wrong_key_93jd8";
    const stack = suite.workspace.stack(suite.project, { config: { ...config(), "messaging:apiKey": wrongKey } });
    const result = await stack.up();
    expect(result.ok).toBe(false);
    const errors = result.errors.join("\n");
    expect(errors).toMatch(/401/);
    expect(errors).not.toContain(wrongKey);
    expect(result.providerStderr.join("\n")).not.toContain(wrongKey);
    expect(stack.stateText()).not.toContain(wrongKey);
    expect(dynamicResources(stack)).toEqual([]);
  });
});

describe("state outlives the installation", () => {
  test("a stack created from one install is refreshed, kept and destroyed from another directory", async () => {
    const stack = suite.workspace.stack(suite.project, { config: config() });
    const up = expectOk(await stack.up());
    const elsewhere = suite.workspace.project("endpoint-stack");
    const moved = suite.workspace.stack(elsewhere, { config: config(), continues: stack });
    expect(opsByName(expectOk(await moved.refresh()))).toEqual({ main: "refresh" });
    const again = expectOk(await moved.up());
    expect(opsByName(again)).toEqual({ main: "same" });
    expect(again.outputs.id).toBe(up.outputs.id);
    expect(opsByName(expectOk(await moved.destroy()))).toEqual({ main: "delete[retain]" });
  });
});

describe("a create whose answer is lost", () => {
  test("on every attempt: up fails, and the next up gets the same endpoint back instead of a second one", async () => {
    const endpoint = { ...ENDPOINT, url: "https://hooks.example.com/lost-answers" };
    const stack = suite.workspace.stack(suite.project, { config: config(endpoint) });
    const count = () => suite.emulator.endpoints().filter((e) => e.url === endpoint.url).length;
    suite.emulator.setFaults({ failureRate: 1, seed: 3, kinds: ["drop_after_processing"] });
    try {
      const first = await stack.up();
      expect(first.ok).toBe(false);
    } finally {
      suite.emulator.setFaults({ failureRate: 0 });
    }
    expect(count()).toBe(1);
    expect(dynamicResources(stack)).toEqual([]);

    const second = expectOk(await stack.up());
    expect(opsByName(second)).toEqual({ main: "create" });
    expect(count()).toBe(1);
    expect(second.outputs.id).toBe(suite.emulator.endpoints().find((e) => e.url === endpoint.url)!.id);
  });
});

describe("a create whose answer cannot be read (the service returned an id but no secret)", () => {
  // The suite.emulator always answers well; this service returns an endpoint without its secret.
  let service: FakeService;
  beforeAll(async () => {
    service = await startHalfMadeEndpointService();
  });
  afterAll(async () => {
    await service?.close();
  });

  async function halfMade(extra: Record<string, string> = {}) {
    const stack = suite.workspace.stack(suite.project, { config: { ...config(ENDPOINT, extra), "messaging:baseUrl": service.url } });
    const result = await stack.up();
    return { stack, result };
  }

  test("up fails printing the reason; the endpoint is kept in state with its init error and its provider", async () => {
    const { stack, result } = await halfMade();
    expect(result.ok).toBe(false);
    // What the CLI prints for an init failure: the reasons, in go-multierror's list format.
    expect(result.errors).toContainEqual(
      expect.stringMatching(
        /^1 error occurred:\n\t\* webhook endpoint we_half_made was created, but the service's answer could not be read/,
      ),
    );
    expect(result.errors.join("\n")).toMatch(/next `pulumi up` asks the service again under the same idempotency key/);
    expect(result.errors.join("\n")).not.toMatch(/remove it|replace/i);
    const recorded = resourceNamed(stack, "main");
    expect(recorded).toMatchObject({
      id: "we_half_made",
      initErrors: [expect.stringContaining("we_half_made")],
    });
    // The missing secret is recorded as a secret null: additionalSecretOutputs apply to a failed create too.
    expect(isSecretWrapper(recorded.outputs.secret)).toBe(true);
    expect(plain(recorded.outputs.secret)).toBeNull();
    expect(recorded.outputs.__provider).toEqual(recorded.inputs.__provider);
  });

  test("the next up, even after a refresh cleared the init error, asks again and fails with the way out; adopt finishes it", async () => {
    const { stack } = await halfMade();
    const again = suite.workspace.stack(suite.project, { config: { ...config(), "messaging:baseUrl": service.url }, continues: stack });
    expect(opsByName(expectOk(await again.refresh()))).toEqual({ main: "refresh" });
    expect(resourceNamed(again, "main").initErrors).toEqual([]);

    const preview = expectOk(await again.preview());
    expect(stepsOf(preview)).toEqual([["update", "we_half_made"]]);
    expect(preview.providerStderr).toEqual([]);
    // This service answers every create with the same unusable answer, as a replaying one would.
    const up = await again.up();
    expect(up.ok).toBe(false);
    expect(stepsOf(up)).toEqual([["update", "we_half_made"]]);
    expect(up.errors.join("\n")).toMatch(/we_half_made: asked again.*still could not be read.*adopt: \{ id: "we_half_made"/s);
    expect(resourceNamed(again, "main")).toMatchObject({ id: "we_half_made", initErrors: [expect.stringContaining("adopt")] });

    const adopted = suite.workspace.stack(suite.project, {
      config: {
        ...config({ ...ENDPOINT, adopt: { id: "we_half_made", secret: "whsec_from_dashboard" } }),
        "messaging:baseUrl": service.url,
      },
      continues: stack,
    });
    const finished = expectOk(await adopted.up());
    expect(stepsOf(finished)).toEqual([["update", "we_half_made"]]);
    expect(plain(finished.outputs.secret)).toBe("whsec_from_dashboard");
    expect(resourceNamed(adopted, "main").initErrors).toEqual([]);
    expect(opsByName(expectOk(await adopted.up()))).toEqual({ main: "same" });
  });

  test("destroy of a half-made endpoint succeeds, with or without retainOnDelete", async () => {
    for (const retainOnDelete of ["true", "false"]) {
      const { stack } = await halfMade({ "endpoint-stack:retainOnDelete": retainOnDelete });
      const destroyed = expectOk(await stack.destroy());
      expect(stepsOf(destroyed)).toEqual([[retainOnDelete === "true" ? "delete[retain]" : "delete", "we_half_made"]]);
      expect(stateOf(stack).resources).toEqual([]);
    }
  });
});
