/**
 * The two routes side by side: a program's resources created through the dynamic provider
 * (the engine model and Pulumi's real dynamic-provider host), then the same inputs given to
 * the plugin against the same emulator. They must answer alike: the same checked inputs and
 * failures, the same diffs, the same outputs apart from `__provider`.
 */
import * as path from "node:path";
import { createPackedProject } from "../../engine/packed-project";
import { startProviderHost, type ProviderHost } from "../../engine/provider-host";
import { startProviderPlugin, type ProviderPlugin } from "../../engine/provider-plugin";
import { plainProps } from "../../engine/secrets";
import { UNKNOWN } from "../../provider/protocol";
import { useEngineSuite } from "../engine/engine-suite";
import type { StackState } from "../../engine/state";
import { expectOk, stateOf, withoutMessagingEnv } from "../engine/harness";
import { linkPluginBin } from "./installed-plugin";

const API_KEY = "sk_test_differential_3e9b";
const suite = useEngineSuite(API_KEY);

type Props = Record<string, unknown>;
const HIDDEN = ["__provider", "idempotencyScope"];
const withoutHidden = (props: Props): Props => Object.fromEntries(Object.entries(props).filter(([key]) => !HIDDEN.includes(key)));
/** The plugin's URN for a dynamic resource's: the same stack, project and name, the plugin's type. */
const pluginUrn = (urn: string, token: string): string => urn.replace(/pulumi-nodejs:dynamic\/messaging:\w+/, token);

let state: StackState;
let host: ProviderHost;
let plugin: ProviderPlugin;

// One stack up through the dynamic route, then the host and the plugin started on that project, both configured for the emulator.
beforeAll(async () => {
  const project = createPackedProject(path.join(__dirname, "fixtures", "dynamic-stack"), {
    tarball: suite.workspace.tarball,
    parentDir: suite.workspace.root,
  });
  const stack = suite.workspace.stack(project, { config: suite.serviceConfig() });
  expectOk(await stack.up());
  state = stateOf(stack);
  const service = { "messaging:apiKey": API_KEY, "messaging:baseUrl": suite.emulator.url };
  host = await startProviderHost(project, withoutMessagingEnv());
  await host.configure(service, ["messaging:apiKey"]);
  plugin = await startProviderPlugin(linkPluginBin(project), { cwd: project, env: withoutMessagingEnv() });
  await plugin.configure(service, ["messaging:apiKey"]);
});
afterAll(async () => {
  await Promise.all([host?.close(), plugin?.close()]);
});

const named = (name: string) => state.resources.find((resource) => resource.name === name)!;

/** Both routes' check and diff for each case, side by side. */
async function compareCheckAndDiff(
  host: ProviderHost,
  plugin: ProviderPlugin,
  urn: string,
  token: string,
  state: { id: string; inputs: Props; outputs: Props },
  cases: Props[],
) {
  const provider = { __provider: state.inputs.__provider };
  for (const news of cases) {
    // The host accepts no secrets: the engine sends it everything in plain text (provider-host.ts, secrets.ts).
    const viaHost = await host.check(urn, plainProps(state.inputs), { ...news, ...provider });
    const viaPlugin = await plugin.check(pluginUrn(urn, token), withoutHidden(state.inputs), news);
    expect({ news, failures: viaPlugin.failures }).toEqual({ news, failures: viaHost.failures });
    // Secrecy apart (the class marks `adopt` secret in the program, the plugin by its schema: both tested elsewhere).
    expect({ news, inputs: plainProps(viaPlugin.inputs) }).toEqual({ news, inputs: withoutHidden(viaHost.inputs) });
    if (viaHost.failures.length > 0) continue;
    const hostDiff = await host.diff(urn, state.id, plainProps(state.outputs), viaHost.inputs, plainProps(state.inputs));
    const pluginDiff = await plugin.diff(
      pluginUrn(urn, token),
      state.id,
      withoutHidden(state.outputs),
      viaPlugin.inputs,
      withoutHidden(state.inputs),
    );
    expect({ news, diff: pluginDiff }).toEqual({ news, diff: hostDiff });
  }
}

test("WebhookEndpoint: the plugin's create gets the endpoint the dynamic route made (same identity), with the same outputs; check, diff and read agree", async () => {
  const state = named("payments");
  const token = "messaging:index:WebhookEndpoint";
  const userInputs = withoutHidden(state.inputs);
  const before = suite.emulator.endpoints().length;

  const created = await plugin.create(
    pluginUrn(state.urn, token),
    (await plugin.check(pluginUrn(state.urn, token), {}, userInputs)).inputs,
  );
  expect(created.id).toBe(state.id);
  // The engine's state holds the host's outputs with `secret` marked by additionalSecretOutputs; the plugin marks it itself.
  expect(created.properties).toEqual(withoutHidden(state.outputs));
  expect(suite.emulator.endpoints()).toHaveLength(before);

  const read = await plugin.read(pluginUrn(state.urn, token), state.id, created.properties, userInputs);
  const hostRead = await host.read(state.urn, state.id, plainProps(state.outputs), plainProps(state.inputs));
  expect(plainProps(read.properties)).toEqual(withoutHidden(hostRead.properties));

  await compareCheckAndDiff(host, plugin, state.urn, token, state, [
    userInputs,
    { ...userInputs, url: "https://hooks.example.com/elsewhere" },
    { ...userInputs, events: ["payment.succeeded", "identity.verification.created"] },
    { ...userInputs, events: ["payment.succeeded", "payment.succeeded"] },
    Object.fromEntries(Object.entries(userInputs).filter(([key]) => key !== "description")),
    { ...userInputs, format: "cloudEvents" },
    { ...userInputs, url: UNKNOWN },
    { ...userInputs, adopt: { id: "we_other", secret: "whsec_other" } },
    { url: "ftp://nope", events: [], format: "xml" },
  ]);
});

test("MessageBatch: the same checks, diffs and outputs (apart from the per-send key prefix, batch ids and time, random by design)", async () => {
  const state = named("reminders");
  const token = "messaging:index:MessageBatch";
  const userInputs = withoutHidden(state.inputs);
  const created = await plugin.create(
    pluginUrn(state.urn, token),
    (await plugin.check(pluginUrn(state.urn, token), {}, userInputs)).inputs,
  );
  const perSend = (props: Props) => ({ ...withoutHidden(props), idempotencyKeyPrefix: "*", batchIds: "*", sentAt: "*" });
  expect(perSend(created.properties)).toEqual(perSend(state.outputs));
  expect(created.properties).toMatchObject({
    idempotencyKeyPrefix: created.id,
    sentAt: expect.any(String),
    batchIds: [expect.stringMatching(/^msba_/)],
  });

  const messages = userInputs.messages as Array<Props>;
  await compareCheckAndDiff(host, plugin, state.urn, token, state, [
    userInputs,
    { ...userInputs, triggers: ["2"] },
    { ...userInputs, messages: [...messages].reverse() },
    { ...userInputs, stream: UNKNOWN },
    { ...userInputs, messages: [{ tos: ["0700"], body: "x", template: { id: "t", model: {} } }] },
  ]);
});
