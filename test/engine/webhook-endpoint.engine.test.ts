/**
 * WebhookEndpoint's lifecycle through the real engine path: the packed package, the real SDK
 * running the program (closure serialization of the provider included) and the real
 * dynamic-provider host over gRPC, against the emulator.
 */
import { startProviderHost } from "../../engine/provider-host";
import { SECRET_SIG } from "../../engine/secrets";
import { ENDPOINT, useEngineSuite } from "./engine-suite";
import { dynamicResources, expectOk, opsByName, plain, resourceNamed, stateOf, stepsOf, withoutMessagingEnv } from "./harness";

const API_KEY = "sk_test_engine_4f9a2c";

const suite = useEngineSuite(API_KEY, "endpoint-stack");
const config = suite.endpointConfig;

describe("create and a no-op second run", () => {
  test("preview plans a create and calls the service zero times", async () => {
    const before = suite.emulator.requestCount();
    const stack = suite.workspace.stack(suite.project, { config: config() });
    const result = expectOk(await stack.preview());
    expect(opsByName(result)).toEqual({ main: "create" });
    // The CLI shows a value not known yet by its type.
    expect(result.outputs.id).toBe("output<string>");
    expect(suite.emulator.requestCount()).toBe(before);
    expect(stack.stateText()).toBe("");
  });

  test("up creates one endpoint with a secret output; a second up changes nothing and calls nothing", async () => {
    const stack = suite.workspace.stack(suite.project, { config: config() });
    const first = expectOk(await stack.up());
    expect(opsByName(first)).toEqual({ main: "create" });

    const id = first.outputs.id as string;
    expect(id).toMatch(/^we_/);
    const recorded = suite.emulator.endpoints().find((endpoint) => endpoint.id === id);
    expect(recorded).toMatchObject({ url: ENDPOINT.url, events: ENDPOINT.events, format: "basic", description: "billing" });

    // secret is a Pulumi secret holding the service's value; etag and status are plain.
    expect(first.outputs.secret).toEqual({ [SECRET_SIG.key]: SECRET_SIG.value, value: recorded!.secret });
    expect(first.outputs.etag).toBe(recorded!.etag);
    expect(first.outputs.status).toBe("enabled");

    const before = suite.emulator.requestCount();
    const second = expectOk(await stack.up());
    expect(opsByName(second)).toEqual({ main: "same" });
    expect(suite.emulator.requestCount()).toBe(before);
    expect(plain(second.outputs.secret)).toBe(recorded!.secret);
  });

  test("the state holds a small serialized provider with no API key and no machine path", async () => {
    const stack = suite.workspace.stack(suite.project, { config: config() });
    expectOk(await stack.up());
    const text = stack.stateText();
    expect(text).not.toContain(API_KEY);
    const provider = resourceNamed(stack, "main").inputs.__provider as string;
    expect(Buffer.byteLength(provider)).toBeLessThan(4096);
    expect(provider).toContain('require("pulumi-messaging/dist/provider/runtime")');
    expect(provider).not.toContain(suite.workspace.root);
    expect(provider).not.toContain(process.cwd());
    expect(provider).not.toMatch(/\/(tmp|home|root|work)\//);
  });
});

describe("bad inputs fail check, naming the property, and change nothing", () => {
  test.each([
    [
      "url",
      { ...ENDPOINT, url: "not a url" },
      /WebhookEndpoint resource 'main': property url value \{not a url\} has a problem: expected an absolute http\(s\) URL/,
    ],
    ["events", { ...ENDPOINT, events: [] }, /property events value \{\[\]\} has a problem: expected at least one event type/],
    ["format", { ...ENDPOINT, format: "xml" }, /property format value \{xml\} has a problem/],
  ])("%s", async (_field, endpoint, message) => {
    const before = suite.emulator.requestCount();
    const stack = suite.workspace.stack(suite.project, { config: config(endpoint) });
    for (const result of [await stack.preview(), await stack.up()]) {
      expect(result.ok).toBe(false);
      expect(result.errors.join("\n")).toMatch(message);
    }
    expect(suite.emulator.requestCount()).toBe(before);
    expect(dynamicResources(stack)).toEqual([]);
  });
});

describe("refresh, destroy, import, update", () => {
  test("refresh keeps the recorded state (there is no retrieve operation)", async () => {
    const stack = suite.workspace.stack(suite.project, { config: config() });
    expectOk(await stack.up());
    const before = stateOf(stack);
    const requests = suite.emulator.requestCount();
    const refreshed = expectOk(await stack.refresh());
    expect(opsByName(refreshed)).toEqual({ main: "refresh" });
    expect(stateOf(stack)).toEqual(before);
    expect(suite.emulator.requestCount()).toBe(requests);
  });

  test("destroy retains by default and never calls the provider's delete", async () => {
    const stack = suite.workspace.stack(suite.project, { config: config() });
    const up = expectOk(await stack.up());
    // The program registered the endpoint with retainOnDelete (the default).
    expect(resourceNamed(stack, "main").retainOnDelete).toBe(true);
    const destroyed = expectOk(await stack.destroy());
    expect(stepsOf(destroyed)).toEqual([["delete[retain]", up.outputs.id]]);
    expect(destroyed.providerStderr).toEqual([]);
    expect(suite.emulator.endpoints().some((endpoint) => endpoint.id === up.outputs.id)).toBe(true);
  });

  test("with retainOnDelete: false, destroy succeeds and says the endpoint stays in the service", async () => {
    const stack = suite.workspace.stack(suite.project, { config: config(ENDPOINT, { "endpoint-stack:retainOnDelete": "false" }) });
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
    const stack = suite.workspace.stack(suite.project, { config: config(ENDPOINT, { "endpoint-stack:importId": "we_from_dashboard" }) });
    const result = await stack.up();
    expect(result.ok).toBe(false);
    expect(result.errors.join("\n")).toMatch(
      /WebhookEndpoint "main" cannot be imported.*no operation to retrieve it.*adopt: \{ id, secret \}/s,
    );
    expect(dynamicResources(stack)).toEqual([]);
  });

  test("under the engine, import is a Read with no state: the host fails before any provider code runs", async () => {
    // This is why the resources refuse the option: a dynamic resource that does not is failed by the host itself.
    const stack = suite.workspace.stack(suite.project, { config: config(ENDPOINT, { "endpoint-stack:rawImport": "we_from_dashboard" }) });
    const result = await stack.up();
    expect(result.ok).toBe(false);
    expect(result.steps.find((step) => step.name === "raw")).toMatchObject({
      op: "import",
      error: expect.stringMatching(/code must be a string/),
    });
  });

  test("through the host: read without recorded state and an in-place update are refused, saying why", async () => {
    const stack = suite.workspace.stack(suite.project, { config: config() });
    const up = expectOk(await stack.up());
    const { urn, inputs, outputs } = resourceNamed(stack, "main");
    const host = await startProviderHost(suite.project, withoutMessagingEnv());
    try {
      await host.configure({}, []);
      await expect(host.read(urn, "we_someone_elses", { __provider: inputs.__provider })).rejects.toThrow(
        /Cannot import webhook endpoint we_someone_elses: the service has no operation to retrieve an endpoint/,
      );
      const plainOutputs = { ...outputs, secret: plain(outputs.secret) };
      await expect(
        host.update(urn, up.outputs.id as string, plainOutputs, { ...inputs, url: "https://x.example.com" }, inputs),
      ).rejects.toThrow(/cannot be updated in place: the service has no update operation/);
    } finally {
      await host.close();
    }
  });
});
