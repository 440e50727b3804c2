/**
 * WebhookEndpoint through the real engine path: the packed package, the real SDK running
 * the program (closure serialization of the provider included) and the real
 * dynamic-provider host over gRPC, against the emulator.
 */
import { startEmulator, type Emulator } from "../../emulator";
import { startProviderHost } from "../../engine/provider-host";
import { SECRET_SIG } from "../../engine/secrets";
import { FakeService, startHalfMadeEndpointService } from "./fake-services";
import { dynamicResources, expectOk, opsByName, PackedWorkspace, plain, resourceNamed, stateOf, stepsOf, withoutMessagingEnv } from "./harness";

const API_KEY = "sk_test_engine_4f9a2c";
const ENDPOINT = { url: "https://hooks.example.com/payments", events: ["payment.succeeded"], description: "billing" };

let workspace: PackedWorkspace;
let project: string;
let emulator: Emulator;

beforeAll(async () => {
  workspace = new PackedWorkspace();
  project = workspace.project("endpoint-stack");
  emulator = await startEmulator({ apiKey: API_KEY });
});

afterAll(async () => {
  await emulator?.close();
  workspace?.cleanup();
});

const config = (endpoint: object = ENDPOINT, extra: Record<string, string> = {}) => ({
  "messaging:apiKey": API_KEY,
  "messaging:baseUrl": emulator.url,
  "endpoint-stack:endpoint": JSON.stringify(endpoint),
  ...extra,
});

describe("create and a no-op second run", () => {
  test("preview plans a create and calls the service zero times", async () => {
    const before = emulator.requestCount();
    const stack = workspace.stack(project, { config: config() });
    const result = expectOk(await stack.preview());
    expect(opsByName(result)).toEqual({ main: "create" });
    // The CLI shows a value not known yet by its type.
    expect(result.outputs.id).toBe("output<string>");
    expect(emulator.requestCount()).toBe(before);
    expect(stack.stateText()).toBe("");
  });

  test("up creates one endpoint with a secret output; a second up changes nothing and calls nothing", async () => {
    const stack = workspace.stack(project, { config: config() });
    const first = expectOk(await stack.up());
    expect(opsByName(first)).toEqual({ main: "create" });

    const id = first.outputs.id as string;
    expect(id).toMatch(/^we_/);
    const recorded = emulator.endpoints().find((endpoint) => endpoint.id === id);
    expect(recorded).toMatchObject({ url: ENDPOINT.url, events: ENDPOINT.events, format: "basic", description: "billing" });

    // secret is a Pulumi secret holding the service's value; etag and status are plain.
    expect(first.outputs.secret).toEqual({ [SECRET_SIG.key]: SECRET_SIG.value, value: recorded!.secret });
    expect(first.outputs.etag).toBe(recorded!.etag);
    expect(first.outputs.status).toBe("enabled");

    const before = emulator.requestCount();
    const second = expectOk(await stack.up());
    expect(opsByName(second)).toEqual({ main: "same" });
    expect(emulator.requestCount()).toBe(before);
    expect(plain(second.outputs.secret)).toBe(recorded!.secret);
  });

  test("the state holds a small serialized provider with no API key and no machine path", async () => {
    const stack = workspace.stack(project, { config: config() });
    expectOk(await stack.up());
    const text = stack.stateText();
    expect(text).not.toContain(API_KEY);
    const provider = resourceNamed(stack, "main").inputs.__provider as string;
    expect(Buffer.byteLength(provider)).toBeLessThan(4096);
    expect(provider).toContain('require("pulumi-messaging/dist/provider/runtime")');
    expect(provider).not.toContain(workspace.root);
    expect(provider).not.toContain(process.cwd());
    expect(provider).not.toMatch(/\/(tmp|home|root|work)\//);
  });
});

describe("changes replace; the old endpoint is retained", () => {
  const changes: Array<[string, object]> = [
    ["url", { ...ENDPOINT, url: "https://hooks.example.com/v2/payments" }],
    ["events", { ...ENDPOINT, events: ["payment.succeeded", "identity.verification.created"] }],
    ["format", { ...ENDPOINT, format: "cloudEvents" }],
    ["description", { ...ENDPOINT, description: "billing (v2)" }],
  ];

  test.each(changes)("changing %s replaces the endpoint and keeps the old one in the service", async (field, changed) => {
    const stack = workspace.stack(project, { config: config() });
    const first = expectOk(await stack.up());
    const oldId = first.outputs.id as string;

    const changedStack = workspace.stack(project, { config: config(changed), continues: stack });
    const preview = expectOk(await changedStack.preview());
    expect(preview.steps.find((step) => step.name === "main")).toMatchObject({ op: "replace[retain]", replaces: [field] });

    const result = expectOk(await changedStack.up());
    const newId = result.outputs.id as string;
    expect(newId).toMatch(/^we_/);
    expect(newId).not.toBe(oldId);
    // Create the replacement, then (at the end) forget the retained original without calling Delete.
    expect(stepsOf(result)).toEqual([["replace[retain]", newId], ["delete-replaced[retain]", oldId]]);
    // Nothing was deleted in the service (it cannot be): both endpoints exist.
    const ids = emulator.endpoints().map((endpoint) => endpoint.id);
    expect(ids).toEqual(expect.arrayContaining([oldId, newId]));
    // The plan says the old endpoint stays active, naming it.
    expect(preview.providerStderr.join("\n")).toContain(`webhook endpoint ${oldId} will be replaced (${field} changed)`);
    expect(result.providerStderr.join("\n")).toContain(`${oldId} stays active and keeps receiving events`);
  });

  test("reordered or repeated events are not a change", async () => {
    const stack = workspace.stack(project, { config: config({ ...ENDPOINT, events: ["payment.succeeded", "identity.verification.created"] }) });
    expectOk(await stack.up());
    const before = emulator.requestCount();
    const reordered = workspace.stack(project, {
      config: config({ ...ENDPOINT, events: ["identity.verification.created", "payment.succeeded", "payment.succeeded"] }),
      continues: stack,
    });
    expect(opsByName(expectOk(await reordered.up()))).toEqual({ main: "same" });
    expect(emulator.requestCount()).toBe(before);
  });

  test("a duplicate event is sent once", async () => {
    const stack = workspace.stack(project, { config: config({ ...ENDPOINT, events: ["payment.succeeded", "payment.succeeded"] }) });
    const result = expectOk(await stack.up());
    expect(emulator.endpoints().find((endpoint) => endpoint.id === result.outputs.id)?.events).toEqual(["payment.succeeded"]);
  });
});

describe("preview with unknown inputs", () => {
  test("an input built from another endpoint's id is unknown in preview and check accepts it", async () => {
    const stack = workspace.stack(project, { config: config(ENDPOINT, { "endpoint-stack:dependent": "true" }) });
    const preview = expectOk(await stack.preview());
    expect(opsByName(preview)).toEqual({ main: "create", follower: "create" });
    expect(preview.outputs.followerUrl).toBe("output<string>");

    const up = expectOk(await stack.up());
    expect(up.outputs.followerUrl).toBe(`https://hooks.example.com/${up.outputs.id}`);
  });

  test("with the first endpoint created, a change to it shows the follower's url as unknown: both replace", async () => {
    const stack = workspace.stack(project, { config: config(ENDPOINT, { "endpoint-stack:dependent": "true" }) });
    expectOk(await stack.up());
    const changed = workspace.stack(project, {
      config: config({ ...ENDPOINT, url: "https://hooks.example.com/other" }, { "endpoint-stack:dependent": "true" }),
      continues: stack,
    });
    const preview = expectOk(await changed.preview());
    expect(preview.steps.map((step) => [step.name, step.op, step.replaces])).toEqual([
      ["main", "replace[retain]", ["url"]],
      ["follower", "replace[retain]", ["url"]],
    ]);
  });
});

describe("bad inputs fail check, naming the property, and change nothing", () => {
  test.each([
    ["url", { ...ENDPOINT, url: "not a url" }, /WebhookEndpoint resource 'main': property url value \{not a url\} has a problem: expected an absolute http\(s\) URL/],
    ["events", { ...ENDPOINT, events: [] }, /property events value \{\[\]\} has a problem: expected at least one event type/],
    ["format", { ...ENDPOINT, format: "xml" }, /property format value \{xml\} has a problem/],
  ])("%s", async (_field, endpoint, message) => {
    const before = emulator.requestCount();
    const stack = workspace.stack(project, { config: config(endpoint) });
    for (const result of [await stack.preview(), await stack.up()]) {
      expect(result.ok).toBe(false);
      expect(result.errors.join("\n")).toMatch(message);
    }
    expect(emulator.requestCount()).toBe(before);
    expect(dynamicResources(stack)).toEqual([]);
  });
});

describe("refresh, destroy, import, update", () => {
  test("refresh keeps the recorded state (there is no retrieve operation)", async () => {
    const stack = workspace.stack(project, { config: config() });
    expectOk(await stack.up());
    const before = stateOf(stack);
    const requests = emulator.requestCount();
    const refreshed = expectOk(await stack.refresh());
    expect(opsByName(refreshed)).toEqual({ main: "refresh" });
    expect(stateOf(stack)).toEqual(before);
    expect(emulator.requestCount()).toBe(requests);
  });

  test("destroy retains by default and never calls the provider's delete", async () => {
    const stack = workspace.stack(project, { config: config() });
    const up = expectOk(await stack.up());
    // The program registered the endpoint with retainOnDelete (the default).
    expect(resourceNamed(stack, "main").retainOnDelete).toBe(true);
    const destroyed = expectOk(await stack.destroy());
    expect(stepsOf(destroyed)).toEqual([["delete[retain]", up.outputs.id]]);
    expect(destroyed.providerStderr).toEqual([]);
    expect(emulator.endpoints().some((endpoint) => endpoint.id === up.outputs.id)).toBe(true);
  });

  test("with retainOnDelete: false, destroy succeeds and says the endpoint stays in the service", async () => {
    const stack = workspace.stack(project, { config: config(ENDPOINT, { "endpoint-stack:retainOnDelete": "false" }) });
    const up = expectOk(await stack.up());
    const destroyed = expectOk(await stack.destroy());
    expect(stepsOf(destroyed)).toEqual([["delete", up.outputs.id]]);
    const warning = destroyed.providerStderr.join("\n");
    expect(warning).toContain(`webhook endpoint ${up.outputs.id}`);
    expect(warning).toContain("stays active in the service");
    expect(warning).toContain("Developers → Webhooks");
    expect(stateOf(stack).resources).toEqual([]);
  });

  test("the import option is refused by the resource, saying why and what to do instead", async () => {
    const stack = workspace.stack(project, { config: config(ENDPOINT, { "endpoint-stack:importId": "we_from_dashboard" }) });
    const result = await stack.up();
    expect(result.ok).toBe(false);
    expect(result.errors.join("\n")).toMatch(/WebhookEndpoint "main" cannot be imported.*no operation to retrieve it.*adopt: \{ id, secret \}/s);
    expect(dynamicResources(stack)).toEqual([]);
  });

  test("under the engine, import is a Read with no state: the host fails before any provider code runs", async () => {
    // This is why the resources refuse the option: a dynamic resource that does not is failed by the host itself.
    const stack = workspace.stack(project, { config: config(ENDPOINT, { "endpoint-stack:rawImport": "we_from_dashboard" }) });
    const result = await stack.up();
    expect(result.ok).toBe(false);
    expect(result.steps.find((step) => step.name === "raw")).toMatchObject({ op: "import", error: expect.stringMatching(/code must be a string/) });
  });

  test("through the host: read without recorded state and an in-place update are refused, saying why", async () => {
    const stack = workspace.stack(project, { config: config() });
    const up = expectOk(await stack.up());
    const { urn, inputs, outputs } = resourceNamed(stack, "main");
    const host = await startProviderHost(project, withoutMessagingEnv());
    try {
      await host.configure({}, []);
      await expect(host.read(urn, "we_someone_elses", { __provider: inputs.__provider })).rejects.toThrow(
        /Cannot import webhook endpoint we_someone_elses: the service has no operation to retrieve an endpoint/,
      );
      const plainOutputs = { ...outputs, secret: plain(outputs.secret) };
      await expect(host.update(urn, up.outputs.id as string, plainOutputs, { ...inputs, url: "https://x.example.com" }, inputs)).rejects.toThrow(
        /cannot be updated in place: the service has no update operation/,
      );
    } finally {
      await host.close();
    }
  });
});

describe("configuration", () => {
  test("the key and base URL can come from the environment", async () => {
    const stack = workspace.stack(project, {
      config: { "endpoint-stack:endpoint": JSON.stringify(ENDPOINT) },
      env: withoutMessagingEnv({ MESSAGING_API_KEY: API_KEY, MESSAGING_BASE_URL: emulator.url }),
    });
    const result = expectOk(await stack.up());
    expect(result.outputs.id).toMatch(/^we_/);
    expect(stack.stateText()).not.toContain(API_KEY);
    expect(result.diagnostics.map((d) => d.message).join("\n")).not.toMatch(/apiKey/);
  });

  test("the whole stack config is the provider's state entry: a --secret key is stored encrypted", async () => {
    const stack = workspace.stack(project, { config: config() });
    const result = expectOk(await stack.up());
    const provider = stateOf(stack).resources.find((resource) => resource.type === "pulumi:providers:pulumi-nodejs")!;
    expect(provider.urn).toMatch(/::pulumi:providers:pulumi-nodejs::default$/);
    expect(plain(provider.inputs["messaging:apiKey"])).toBe(API_KEY);
    expect(provider.inputs["messaging:apiKey"]).not.toBe(API_KEY);
    expect(provider.inputs["messaging:baseUrl"]).toBe(emulator.url);
    expect(stack.stateText()).not.toContain(API_KEY);
    expect(resourceNamed(stack, "main").provider).toBe(`${provider.urn}::${provider.id}`);
    expect(result.diagnostics.map((d) => d.message).join("\n")).not.toMatch(/apiKey/);
  });

  test("a key set without --secret is saved in plain text there, and the program warns once", async () => {
    const stack = workspace.stack(project, { config: config(ENDPOINT, { "endpoint-stack:dependent": "true" }), secretKeys: [] });
    const result = expectOk(await stack.up());
    expect(stack.stateText()).toContain(API_KEY);
    const warnings = result.diagnostics.filter((d) => d.severity === "warning" && /apiKey/.test(d.message)).map((d) => d.message);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/messaging:apiKey is set in plain text.*pulumi:providers:pulumi-nodejs::default.*pulumi config set --secret messaging:apiKey/);
    expect(warnings[0]).not.toContain(API_KEY);
  });

  test("stack config wins over the environment", async () => {
    const stack = workspace.stack(project, {
      config: config(),
      env: withoutMessagingEnv({ MESSAGING_API_KEY: "sk_wrong_env_key", MESSAGING_BASE_URL: "http://127.0.0.1:9" }),
    });
    expect(expectOk(await stack.up()).outputs.id).toMatch(/^we_/);
  });

  test("a missing key fails, naming both ways to set it; preview needs no key", async () => {
    const stack = workspace.stack(project, { config: { "messaging:baseUrl": emulator.url, "endpoint-stack:endpoint": JSON.stringify(ENDPOINT) } });
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
    const stack = workspace.stack(project, { config: { ...config(), "messaging:apiKey": wrongKey } });
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
    const stack = workspace.stack(project, { config: config() });
    const up = expectOk(await stack.up());
    const elsewhere = workspace.project("endpoint-stack");
    const moved = workspace.stack(elsewhere, { config: config(), continues: stack });
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
    const stack = workspace.stack(project, { config: config(endpoint) });
    const count = () => emulator.endpoints().filter((e) => e.url === endpoint.url).length;
    emulator.setFaults({ failureRate: 1, seed: 3, kinds: ["drop_after_processing"] });
    try {
      const first = await stack.up();
      expect(first.ok).toBe(false);
    } finally {
      emulator.setFaults({ failureRate: 0 });
    }
    expect(count()).toBe(1);
    expect(dynamicResources(stack)).toEqual([]);

    const second = expectOk(await stack.up());
    expect(opsByName(second)).toEqual({ main: "create" });
    expect(count()).toBe(1);
    expect(second.outputs.id).toBe(emulator.endpoints().find((e) => e.url === endpoint.url)!.id);
  });
});

describe("a create whose answer cannot be read (the service returned an id but no secret)", () => {
  // The emulator always answers well; this service returns an endpoint without its secret.
  let service: FakeService;
  beforeAll(async () => {
    service = await startHalfMadeEndpointService();
  });
  afterAll(async () => {
    await service?.close();
  });

  async function halfMade(extra: Record<string, string> = {}) {
    const stack = workspace.stack(project, { config: { ...config(ENDPOINT, extra), "messaging:baseUrl": service.url } });
    const result = await stack.up();
    return { stack, result };
  }

  test("up fails printing the reason; the endpoint is kept in state with its init error and its provider", async () => {
    const { stack, result } = await halfMade();
    expect(result.ok).toBe(false);
    // What the CLI prints for an init failure: the reasons, in go-multierror's list format.
    expect(result.errors).toContainEqual(expect.stringMatching(/^1 error occurred:\n\t\* webhook endpoint we_half_made was created, but the service's answer could not be read/));
    expect(result.errors.join("\n")).toMatch(/next `pulumi up` replaces it with a new endpoint/);
    const recorded = resourceNamed(stack, "main");
    expect(recorded).toMatchObject({ id: "we_half_made", outputs: { secret: null }, initErrors: [expect.stringContaining("we_half_made")] });
    expect(recorded.outputs.__provider).toEqual(recorded.inputs.__provider);
  });

  test("the next up replaces it with a new endpoint, even after a refresh cleared the init error", async () => {
    const { stack } = await halfMade();
    const working = workspace.stack(project, { config: config(), continues: stack });
    expect(opsByName(expectOk(await working.refresh()))).toEqual({ main: "refresh" });
    expect(resourceNamed(working, "main").initErrors).toEqual([]);

    const preview = expectOk(await working.preview());
    expect(preview.steps[0]).toMatchObject({ op: "replace[retain]", replaces: ["secret"] });
    expect(preview.providerStderr.join("\n")).toContain("we_half_made will be replaced (its signing secret was never received)");
    const up = expectOk(await working.up());
    expect(stepsOf(up)).toEqual([["replace[retain]", up.outputs.id], ["delete-replaced[retain]", "we_half_made"]]);
    expect(plain(up.outputs.secret)).toBe(emulator.endpoints().find((endpoint) => endpoint.id === up.outputs.id)!.secret);
    expect(opsByName(expectOk(await working.up()))).toEqual({ main: "same" });
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
