/**
 * The plugin started as the engine starts it (the installed bin, found on PATH, with the
 * engine's address as its argument) and driven over gRPC as the engine drives a provider
 * that accepts secrets, against the emulator and against services that fail on purpose.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { startEmulator, type Emulator } from "../../emulator";
import type { ProviderPlugin } from "../support/provider-plugin";
import { ResourceInitError } from "../support/provider-host";
import { isSecretWrapper, wrapSecret } from "../support/secrets";
import { UNKNOWN } from "../../provider/protocol";
import { startFirstChunkOnlyService, startHalfMadeEndpointService } from "../support/fake-services";
import { withoutMessagingEnv } from "../support/environment";
import { InstalledPlugin } from "./installed-plugin";

const API_KEY = "sk_test_plugin_5c1d";
const PROVIDER_URN = "urn:pulumi:dev::shop::pulumi:providers:messaging::default";
const ENDPOINT_URN = "urn:pulumi:dev::shop::messaging:index:WebhookEndpoint::payments";
const BATCH_URN = "urn:pulumi:dev::shop::messaging:index:MessageBatch::reminders";
const ENDPOINT = { url: "https://hooks.example.com/payments", events: ["payment.succeeded", "payment.succeeded"], description: "billing" };

let installed: InstalledPlugin;
let emulator: Emulator;
let plugin: ProviderPlugin;

beforeAll(async () => {
  installed = new InstalledPlugin();
  emulator = await startEmulator({ apiKey: API_KEY });
  plugin = await installed.start();
  await plugin.configure({ "messaging:apiKey": API_KEY, "messaging:baseUrl": emulator.url }, ["messaging:apiKey"]);
});
afterAll(async () => {
  await installed?.cleanup();
  await emulator?.close();
});

/** A plugin of its own, configured for `baseUrl`, stopped after `use`. */
async function withPlugin<T>(
  config: Record<string, string>,
  use: (own: ProviderPlugin) => Promise<T>,
  env = withoutMessagingEnv(),
): Promise<T> {
  const own = await installed.start(env);
  try {
    await own.configure(config, ["messaging:apiKey"]);
    return await use(own);
  } finally {
    await own.close();
  }
}

const reveal = (value: unknown): unknown => (isSecretWrapper(value) ? value.value : value);

test("GetPluginInfo is the package version; GetSchema names both resources; RPCs it does not offer answer UNIMPLEMENTED saying why", async () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(installed.project, "node_modules/pulumi-messaging/package.json"), "utf8"));
  expect(await plugin.getPluginInfo()).toBe(manifest.version);
  const schema = (await plugin.getSchema()) as { name: string; version: string; resources: Record<string, unknown> };
  expect(schema.name).toBe("messaging");
  expect(schema.version).toBe(manifest.version);
  expect(Object.keys(schema.resources).sort()).toEqual(["messaging:index:MessageBatch", "messaging:index:WebhookEndpoint"]);

  for (const [method, request, why] of [
    ["handshake", new proto.ProviderHandshakeRequest(), /Handshake: the engine then takes the protocol from Configure/],
    ["invoke", new proto.InvokeRequest(), /Invoke: the package has no functions/],
    ["construct", new proto.ConstructRequest(), /Construct: the package has no components/],
  ] as const) {
    const error = (await plugin.callRaw(method, request).catch((e) => e)) as { code: number; message: string };
    expect(error.code).toBe(12); // UNIMPLEMENTED
    expect(error.message).toMatch(why);
  }
  await expect(plugin.callRaw("cancel", new Empty())).resolves.toBeDefined();
});

test("CheckConfig fails per bad setting without echoing it; DiffConfig reports a changed setting as an update, never a replacement", async () => {
  const bad = await plugin.checkConfig(
    PROVIDER_URN,
    {},
    { apiKey: "sk:with-colon", baseUrl: "ftp://example.com", apiVersion: "2024-02-30" },
  );
  expect(bad.failures.map((failure) => failure.property).sort()).toEqual(["apiKey", "apiVersion", "baseUrl"]);
  expect(JSON.stringify(bad.failures)).not.toContain("sk:with-colon");
  const good = await plugin.checkConfig(PROVIDER_URN, {}, { apiKey: API_KEY, baseUrl: emulator.url, apiVersion: UNKNOWN });
  expect(good.failures).toEqual([]);

  const olds = { apiKey: API_KEY, baseUrl: emulator.url };
  expect(await plugin.diffConfig(PROVIDER_URN, olds, { ...olds }, olds)).toEqual({
    changes: "none",
    replaces: [],
    deleteBeforeReplace: false,
  });
  expect(await plugin.diffConfig(PROVIDER_URN, olds, { ...olds, baseUrl: "http://127.0.0.1:1" }, olds)).toEqual({
    changes: "some",
    replaces: [],
    deleteBeforeReplace: false,
  });
});

test("Configure accepts secrets and leaves previews to the engine", async () => {
  await withPlugin({ "messaging:apiKey": API_KEY, "messaging:baseUrl": emulator.url }, async (own) => {
    expect(await own.configure({ "messaging:apiKey": API_KEY }, ["messaging:apiKey"])).toEqual({
      acceptSecrets: true,
      supportsPreview: false,
    });
  });
});

test("WebhookEndpoint: create (secret wrapped), the same create again gets the same endpoint, unchanged diff, replace on url change, read, delete keeps it and says so", async () => {
  const checked = await plugin.check(ENDPOINT_URN, {}, ENDPOINT);
  expect(checked).toEqual({ inputs: { ...ENDPOINT, events: ["payment.succeeded"], format: "basic" }, failures: [] });

  const created = await plugin.create(ENDPOINT_URN, checked.inputs);
  expect(created.id).toMatch(/^we_/);
  expect(isSecretWrapper(created.properties.secret)).toBe(true);
  const recorded = emulator.endpoints().find((endpoint) => endpoint.id === created.id)!;
  expect(reveal(created.properties.secret)).toBe(recorded.secret);
  expect(created.properties).toMatchObject({ url: ENDPOINT.url, events: ["payment.succeeded"], format: "basic", description: "billing" });
  expect(created.properties).not.toHaveProperty("__provider");

  // An up whose answer was lost runs the create again: the URN-scoped idempotency key gets the same endpoint.
  const count = emulator.endpoints().length;
  expect((await plugin.create(ENDPOINT_URN, checked.inputs)).id).toBe(created.id);
  expect(emulator.endpoints()).toHaveLength(count);

  expect(await plugin.diff(ENDPOINT_URN, created.id, created.properties, checked.inputs, checked.inputs)).toEqual({
    changes: "none",
    replaces: [],
    deleteBeforeReplace: false,
  });
  const moved = { ...checked.inputs, url: "https://hooks.example.com/moved" };
  expect(await plugin.diff(ENDPOINT_URN, created.id, created.properties, moved, checked.inputs)).toEqual({
    changes: "some",
    replaces: ["url"],
    deleteBeforeReplace: false,
  });

  const read = await plugin.read(ENDPOINT_URN, created.id, created.properties, checked.inputs);
  expect(read).toEqual({ id: created.id, properties: created.properties, inputs: checked.inputs });

  await plugin.delete(ENDPOINT_URN, created.id, created.properties, checked.inputs);
  expect(emulator.endpoints().some((endpoint) => endpoint.id === created.id)).toBe(true);
  // Through the engine's Log, before the answer: the engine hides a plugin's stderr.
  expect(plugin.logged()).toContainEqual(
    expect.stringMatching(new RegExp(`^warning: webhook endpoint ${created.id} .*still exists and stays active in the service`)),
  );
});

test("WebhookEndpoint: import is refused naming adopt; adopt records the given endpoint without a call, its secret wrapped in inputs and outputs", async () => {
  const refused = await plugin.read(ENDPOINT_URN, "we_elsewhere", {}).catch((error) => error);
  expect(refused.message).toMatch(/Cannot import webhook endpoint we_elsewhere.*adopt: \{ id, secret \}/);

  const before = emulator.endpoints().length;
  const adopt = wrapSecret({ id: "we_dashboard", secret: "whsec_adopted" });
  const checked = await plugin.check(ENDPOINT_URN, {}, { url: "https://hooks.example.com/adopted", events: ["payment.succeeded"], adopt });
  expect(checked.failures).toEqual([]);
  expect(checked.inputs.adopt).toEqual(adopt);
  const created = await plugin.create(ENDPOINT_URN.replace("payments", "adopted"), checked.inputs);
  expect(created.id).toBe("we_dashboard");
  expect(created.properties.secret).toEqual(wrapSecret("whsec_adopted"));
  expect(emulator.endpoints()).toHaveLength(before);
});

test("a secret input stays secret in the outputs (the engine no longer marks them when secrets are accepted)", async () => {
  const inputs = { url: wrapSecret("https://hooks.example.com/private"), events: ["payment.succeeded"], format: "basic" };
  const checked = await plugin.check(ENDPOINT_URN.replace("payments", "private"), {}, inputs);
  expect(checked.inputs.url).toEqual(inputs.url);
  const created = await plugin.create(ENDPOINT_URN.replace("payments", "private"), checked.inputs);
  expect(created.properties.url).toEqual(inputs.url);
  expect(emulator.endpoints().find((endpoint) => endpoint.id === created.id)?.url).toBe("https://hooks.example.com/private");
});

test("check failures name each property; preview unknowns pass check and make diff replace", async () => {
  const endpoint = await plugin.check(ENDPOINT_URN, {}, { url: "not a url", events: [], format: "xml" });
  expect(endpoint.failures.map((failure) => failure.property).sort()).toEqual(["events", "format", "url"]);
  const batch = await plugin.check(BATCH_URN, {}, { stream: "transactional", messages: [{ tos: ["0712"], body: "hi" }] });
  expect(batch.failures).toEqual([{ property: "messages.0.tos.0", reason: expect.stringMatching(/E\.164/) }]);

  const unknown = await plugin.check(ENDPOINT_URN, {}, { url: UNKNOWN, events: ["payment.succeeded"] });
  expect(unknown).toEqual({ inputs: { url: UNKNOWN, events: ["payment.succeeded"], format: "basic" }, failures: [] });
  const olds = { url: "https://hooks.example.com/a", events: ["payment.succeeded"], format: "basic", description: null, secret: "whsec_x" };
  expect(await plugin.diff(ENDPOINT_URN, "we_1", olds, unknown.inputs, {})).toEqual({
    changes: "some",
    replaces: ["url"],
    deleteBeforeReplace: false,
  });
});

test("MessageBatch: sent once; the same URN with other inputs replaces; a missing API key names both ways to set it", async () => {
  const inputs = { stream: "transactional", messages: [{ tos: ["+254712345678"], body: "Your order shipped" }] };
  const created = await plugin.create(BATCH_URN, (await plugin.check(BATCH_URN, {}, inputs)).inputs);
  expect(created.properties).toMatchObject({ stream: "transactional", messageCount: 1, sentAt: expect.any(String) });
  expect(emulator.batches().filter((batch) => batch.messages[0]?.body === "Your order shipped")).toHaveLength(1);
  const changed = { ...inputs, triggers: ["again"] };
  expect((await plugin.diff(BATCH_URN, created.id, created.properties, changed, inputs)).replaces).toEqual(["triggers"]);

  await withPlugin({ "messaging:baseUrl": emulator.url }, async (own) => {
    const error = await own.create(BATCH_URN, inputs).catch((e) => e);
    expect(error.message).toMatch(/No API key .*pulumi config set --secret messaging:apiKey.*MESSAGING_API_KEY/);
  });
});

test("with no config the settings come from the environment, as for the dynamic provider", async () => {
  const env = withoutMessagingEnv({ MESSAGING_API_KEY: API_KEY, MESSAGING_BASE_URL: emulator.url });
  await withPlugin(
    {},
    async (own) => {
      const urn = ENDPOINT_URN.replace("payments", "from-env");
      const inputs = (await own.check(urn, {}, { url: "https://hooks.example.com/from-env", events: ["payment.succeeded"] })).inputs;
      const created = await own.create(urn, inputs);
      expect(emulator.endpoints().find((endpoint) => endpoint.id === created.id)?.url).toBe("https://hooks.example.com/from-env");
    },
    env,
  );
});

test("init failures carry id, reasons and partial outputs: a half-made endpoint, and a part-sent batch that the update finishes with no duplicate", async () => {
  const halfMade = await startHalfMadeEndpointService();
  try {
    await withPlugin({ "messaging:apiKey": API_KEY, "messaging:baseUrl": halfMade.url }, async (own) => {
      const checked = await own.check(ENDPOINT_URN, {}, { url: "https://hooks.example.com/payments", events: ["payment.succeeded"] });
      const failure = await own.create(ENDPOINT_URN, checked.inputs).catch((error) => error);
      expect(failure).toBeInstanceOf(ResourceInitError);
      expect(failure.id).toBe("we_half_made");
      expect(failure.reasons).toEqual([expect.stringMatching(/we_half_made was created.*secret is unknown/)]);
      expect(failure.properties).toMatchObject({ url: "https://hooks.example.com/payments", secret: null });
      expect(failure.properties).not.toHaveProperty("__provider");
      // Finished in place by the next up (an update asking again under the create's key), never replaced.
      expect(await own.diff(ENDPOINT_URN, failure.id, failure.properties, checked.inputs, checked.inputs)).toEqual({
        changes: "some",
        replaces: [],
        deleteBeforeReplace: false,
      });
    });
  } finally {
    await halfMade.close();
  }

  const service = await startFirstChunkOnlyService();
  try {
    await withPlugin({ "messaging:apiKey": API_KEY, "messaging:baseUrl": service.url }, async (own) => {
      const messages = Array.from({ length: 1500 }, (_, i) => ({ tos: [`+2547${String(i).padStart(8, "0")}`], body: "Reminder" }));
      const inputs = (await own.check(BATCH_URN, {}, { stream: "transactional", messages })).inputs;
      const failure = await own.create(BATCH_URN, inputs).catch((error) => error);
      expect(failure).toBeInstanceOf(ResourceInitError);
      expect(failure.reasons).toEqual([expect.stringMatching(/1000 of 1500 messages were confirmed/)]);
      expect(failure.properties).toMatchObject({ sentAt: null, messageCount: 1500 });

      const read = await own.read(BATCH_URN, failure.id, failure.properties, inputs);
      expect(await own.diff(BATCH_URN, failure.id, read.properties, inputs, inputs)).toEqual({
        changes: "some",
        replaces: [],
        deleteBeforeReplace: false,
      });
      service.acceptAll();
      const updated = await own.update(BATCH_URN, failure.id, read.properties, inputs, inputs);
      expect(updated.properties).toMatchObject({ sentAt: expect.any(String), batchIds: ["msba_fake_0", "msba_fake_1"] });
      expect(service.recipients()).toHaveLength(1500);
      expect(new Set(service.recipients()).size).toBe(1500);
    });
  } finally {
    await service.close();
  }
});

test("the plugin stops once its engine is gone (a `pulumi` killed mid-run) instead of working on for a run no one records", async () => {
  const own = await installed.start(withoutMessagingEnv());
  try {
    await own.configure({ "messaging:apiKey": API_KEY, "messaging:baseUrl": emulator.url }, ["messaging:apiKey"]);
    await own.stopEngine();
    expect(await own.exited()).toBe(1);
    expect(own.stderr().join("\n")).toMatch(/pulumi-resource-messaging: the engine at 127\.0\.0\.1:\d+ is gone; stopping/);
  } finally {
    await own.close();
  }
});
