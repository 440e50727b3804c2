/**
 * The self-contained plugin archive (`npm run plugin:pack`): unpacked into an empty directory
 * outside the repository (no node_modules anywhere above it), started through its launcher as
 * the engine starts a plugin from the cache, and driven against the emulator.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { startProviderPlugin, type ProviderPlugin } from "../support/provider-plugin";
import { isSecretWrapper } from "../support/secrets";
import { packageSchema } from "../../plugin/schema";
import { packPlugin } from "../../scripts/pack-plugin";
import { withoutMessagingEnv } from "../support/environment";

const API_KEY = "sk_test_archive_77a0";
const ENDPOINT_URN = "urn:pulumi:dev::shop::messaging:index:WebhookEndpoint::orders";
const BATCH_URN = "urn:pulumi:dev::shop::messaging:index:MessageBatch::welcome";

let scratch: string;
let unpacked: string;
let archives: Record<string, string>;
let version: string;
let emulator: Emulator;
let plugin: ProviderPlugin;

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-archive-test-"));
  const packed = await packPlugin(path.join(scratch, "out"));
  version = packed.version;
  archives = packed.archives;
  unpacked = fs.mkdtempSync(path.join(scratch, "plugin-"));
  execFileSync("tar", ["-xzf", packed.archive, "-C", unpacked]);
  emulator = await startEmulator({ apiKey: API_KEY });
  plugin = await startProviderPlugin(path.join(unpacked, "pulumi-resource-messaging"), { cwd: unpacked, env: withoutMessagingEnv() });
});
afterAll(async () => {
  await plugin?.close();
  await emulator?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

test("one archive a platform, named as pulumi plugin install expects, each with its launcher and one bundle, no node_modules; nothing above it resolves a module", () => {
  expect(Object.fromEntries(Object.entries(archives).map(([platform, archive]) => [platform, path.basename(archive)]))).toEqual({
    "linux-amd64": `pulumi-resource-messaging-v${version}-linux-amd64.tar.gz`,
    "linux-arm64": `pulumi-resource-messaging-v${version}-linux-arm64.tar.gz`,
    "darwin-amd64": `pulumi-resource-messaging-v${version}-darwin-amd64.tar.gz`,
    "darwin-arm64": `pulumi-resource-messaging-v${version}-darwin-arm64.tar.gz`,
    "windows-amd64": `pulumi-resource-messaging-v${version}-windows-amd64.tar.gz`,
  });
  const listing = (archive: string) => execFileSync("tar", ["-tzf", archive], { encoding: "utf8" }).trim().split("\n").sort();
  expect(listing(archives["darwin-arm64"])).toContain("./pulumi-resource-messaging");
  expect(listing(archives["darwin-arm64"])).not.toContain("./pulumi-resource-messaging.cmd");
  expect(listing(archives["windows-amd64"])).toContain("./pulumi-resource-messaging.cmd");
  expect(listing(archives["windows-amd64"])).not.toContain("./pulumi-resource-messaging");
  const files = execFileSync("find", [".", "-type", "f"], { cwd: unpacked, encoding: "utf8" }).trim().split("\n").sort();
  expect(files).toEqual(expect.arrayContaining(["./bin/plugin.js", "./package.json", "./pulumi-resource-messaging"]));
  expect(files.some((file) => file.includes("node_modules"))).toBe(false);
  for (let dir = unpacked; dir !== path.dirname(dir); dir = path.dirname(dir))
    expect(fs.existsSync(path.join(dir, "node_modules"))).toBe(false);
});

test("the unpacked plugin reports its version and the schema the source derives, takes its config, and creates, diffs, reads and deletes against the emulator", async () => {
  expect(await plugin.getPluginInfo()).toBe(version);
  expect(await plugin.getSchema()).toEqual(JSON.parse(JSON.stringify(packageSchema(version))));
  await plugin.configure({ "messaging:apiKey": API_KEY, "messaging:baseUrl": emulator.url }, ["messaging:apiKey"]);

  const inputs = (await plugin.check(ENDPOINT_URN, {}, { url: "https://hooks.example.com/orders", events: ["payment.succeeded"] })).inputs;
  const created = await plugin.create(ENDPOINT_URN, inputs);
  expect(emulator.endpoints().map((endpoint) => endpoint.id)).toEqual([created.id]);
  expect(isSecretWrapper(created.properties.secret)).toBe(true);
  expect((await plugin.diff(ENDPOINT_URN, created.id, created.properties, inputs, inputs)).changes).toBe("none");
  expect((await plugin.read(ENDPOINT_URN, created.id, created.properties, inputs)).properties).toEqual(created.properties);
  await plugin.delete(ENDPOINT_URN, created.id, created.properties, inputs);
  expect(plugin.logged()).toContainEqual(expect.stringMatching(/^warning: .*removed from the stack.*stays active in the service/));

  const batch = { stream: "transactional", messages: [{ tos: ["+254700000001"], body: "Welcome" }] };
  const sent = await plugin.create(BATCH_URN, (await plugin.check(BATCH_URN, {}, batch)).inputs);
  expect(sent.properties).toMatchObject({ messageCount: 1, sentAt: expect.any(String) });
  expect(emulator.batches().map((recorded) => recorded.messages)).toEqual([batch.messages]);
});
