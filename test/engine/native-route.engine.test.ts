/**
 * The native route through the engine model: a program registering `messaging:index:*`
 * resources (as a generated SDK does) gets the default provider `pulumi:providers:messaging`,
 * whose plugin the engine finds through `plugins.providers` in Pulumi.yaml, starts with its
 * address, checks, configures and calls, against the emulator. One stack walks through
 * preview, up, a no-op up, replacements, refresh and destroy.
 */
import * as path from "node:path";
import { createPackedProject } from "../../engine/packed-project";
import type { EngineResult } from "../../engine/plan";
import { SECRET_SIG } from "../../engine/secrets";
import { linkPluginBin } from "../plugin/installed-plugin";
import { useEngineSuite } from "./engine-suite";
import { expectOk, plain, stateOf } from "./harness";

const API_KEY = "sk_test_native_route_19d2";
const suite = useEngineSuite(API_KEY);
const URL = "https://hooks.example.com/native";

let project: string;
beforeAll(() => {
  project = createPackedProject(path.join(__dirname, "..", "plugin", "fixtures", "native-stack"), {
    tarball: suite.workspace.tarball,
    parentDir: suite.workspace.root,
  });
  linkPluginBin(project);
});

/** `op` of each step by resource name (`default` is the provider). */
const ops = (result: EngineResult): Record<string, string> =>
  Object.fromEntries(
    result.steps
      .filter((step) => step.type.startsWith("messaging:") || step.type.startsWith("pulumi:providers:"))
      .map((step) => [step.name, step.op]),
  );

test("preview, up, a no-op up, replacements, refresh and destroy of an endpoint and a batch, all through the plugin", async () => {
  const config = (extra: Record<string, string> = {}) => suite.serviceConfig({ "native-stack:url": URL, ...extra });
  const stack = suite.workspace.stack(project, { config: config({ "native-stack:dependent": "true" }) });

  // Preview: the default provider is planned (its id unknown), the plugin is checked and
  // configured, no resource is created and the service is not called.
  const before = suite.emulator.requestCount();
  const preview = expectOk(await stack.preview());
  expect(ops(preview)).toEqual({ default: "create", orders: "create", follower: "create", welcome: "create" });
  expect(preview.steps.find((step) => step.name === "default")).toMatchObject({
    type: "pulumi:providers:messaging",
    id: "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
  });
  expect(preview.outputs.followerUrl).toBe("output<string>");
  expect(suite.emulator.requestCount()).toBe(before);

  const first = expectOk(await stack.up());
  expect(ops(first)).toEqual({ default: "create", orders: "create", follower: "create", welcome: "create" });
  const id = first.outputs.endpointId as string;
  const recorded = suite.emulator.endpoints().find((endpoint) => endpoint.id === id)!;
  expect(recorded).toMatchObject({ url: URL, events: ["payment.succeeded"], format: "basic" });
  expect(first.outputs.secret).toEqual({ [SECRET_SIG.key]: SECRET_SIG.value, value: recorded.secret });
  expect(first.outputs.followerUrl).toBe(`https://hooks.example.com/${id}`);
  expect(suite.emulator.batches().filter((batch) => batch.messages[0]?.body === "Welcome aboard")).toHaveLength(1);

  // The provider's state holds the package config only (target.go `GetPackageConfig`), the key
  // as a secret; the endpoint's secret is marked by the plugin; nothing is stored in plain text.
  const state = stateOf(stack);
  const provider = state.resources.find((resource) => resource.type === "pulumi:providers:messaging")!;
  expect(Object.keys(provider.inputs).sort()).toEqual(["apiKey", "baseUrl"]);
  expect(provider.inputs.apiKey).toEqual({ [SECRET_SIG.key]: SECRET_SIG.value, value: API_KEY });
  const orders = state.resources.find((resource) => resource.name === "orders")!;
  expect(orders).toMatchObject({ type: "messaging:index:WebhookEndpoint", provider: `${provider.urn}::${provider.id}` });
  expect(orders.inputs).not.toHaveProperty("__provider");
  expect(stack.stateText()).not.toContain(API_KEY);
  expect(stack.stateText()).not.toContain(recorded.secret);

  const quiet = suite.emulator.requestCount();
  expect(ops(expectOk(await stack.up()))).toEqual({ default: "same", orders: "same", follower: "same", welcome: "same" });
  expect(suite.emulator.requestCount()).toBe(quiet);

  // A new URL replaces the endpoint, and the follower left the program; the old endpoints are
  // deleted from the stack through Delete, which keeps them and says so. A new trigger sends
  // the batch again.
  const movedStack = suite.workspace.stack(project, {
    config: config({ "native-stack:url": `${URL}/v2`, "native-stack:trigger": "2" }),
    continues: stack,
  });
  const moved = expectOk(await movedStack.up());
  expect(ops(moved)).toEqual({ default: "same", orders: "delete-replaced", welcome: "delete-replaced", follower: "delete" });
  expect(
    moved.steps
      .filter((step) => step.op === "replace")
      .map((step) => step.name)
      .sort(),
  ).toEqual(["orders", "welcome"]);
  expect(moved.providerStderr.join("\n")).toMatch(new RegExp(`webhook endpoint ${id} .*still exists and stays active in the service`));
  expect(suite.emulator.endpoints().some((endpoint) => endpoint.id === id)).toBe(true);
  expect(suite.emulator.batches().filter((batch) => batch.messages[0]?.body === "Welcome aboard")).toHaveLength(2);

  const refreshed = expectOk(await movedStack.refresh());
  expect(
    refreshed.steps
      .filter((step) => step.op === "refresh")
      .map((step) => step.name)
      .sort(),
  ).toEqual(["orders", "welcome"]);
  expect(plain(stateOf(movedStack).resources.find((resource) => resource.name === "orders")!.outputs.secret)).toEqual(
    expect.stringMatching(/^whsec_/),
  );

  const destroyed = expectOk(await movedStack.destroy());
  expect(destroyed.steps.map((step) => `${step.name}:${step.op}`)).toEqual(
    expect.arrayContaining(["orders:delete", "welcome:delete", "default:delete"]),
  );
  expect(stateOf(movedStack).resources).toEqual([]);
  expect(destroyed.providerStderr.join("\n")).toMatch(/message batch .* was removed from the stack/);
});

test("import is a Read with no state, which the plugin refuses naming adopt; a bad config setting fails CheckConfig before any resource", async () => {
  const imported = await suite.workspace
    .stack(project, { config: suite.serviceConfig({ "native-stack:url": URL, "native-stack:importId": "we_elsewhere" }) })
    .up();
  expect(imported.ok).toBe(false);
  expect(imported.errors.join("\n")).toMatch(/Cannot import webhook endpoint we_elsewhere.*adopt: \{ id, secret \}/);

  const badUrl = await suite.workspace
    .stack(project, { config: { ...suite.serviceConfig({ "native-stack:url": URL }), "messaging:baseUrl": "ftp://example.com" } })
    .up();
  expect(badUrl.ok).toBe(false);
  expect(badUrl.errors.join("\n")).toMatch(
    /pulumi:providers:messaging resource 'default': property baseUrl value \{ftp:\/\/example.com\} has a problem: .*http or https/,
  );
});

test("the API key made secret with the same value: DiffConfig answers no change, so the provider is same and keeps its recorded outputs as they were", async () => {
  const config = suite.serviceConfig({ "native-stack:url": URL });
  const stack = suite.workspace.stack(project, { config, secretKeys: [] });
  expectOk(await stack.up());
  const secretKey = suite.workspace.stack(project, { config, secretKeys: ["messaging:apiKey"], continues: stack });
  expect(ops(expectOk(await secretKey.up())).default).toBe("same");
  const provider = stateOf(stack).resources.find((resource) => resource.type === "pulumi:providers:messaging")!;
  // The new inputs are recorded; the outputs are the old ones (step.go `SameStep.Apply`), not the new inputs.
  expect(provider.inputs.apiKey).toEqual({ [SECRET_SIG.key]: SECRET_SIG.value, value: API_KEY });
  expect(provider.outputs.apiKey).toBe(API_KEY);
});
