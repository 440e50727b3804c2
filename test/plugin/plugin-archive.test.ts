/**
 * The plugin archives (`npm run plugin:pack`): one a platform, standalone where npm has that
 * platform's `node`. This machine's is unpacked into an empty directory outside the repository
 * (no node_modules anywhere above it), started as the engine starts a plugin from the cache with
 * no `node` on PATH, and driven against the emulator.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator";
import { startProviderPlugin, type ProviderPlugin } from "../support/provider-plugin";
import { isSecretWrapper } from "../support/secrets";
import { packageSchema } from "../../plugin/schema";
import { packPlugin, PLATFORMS, type Platform } from "../../scripts/release/pack-plugin";
import { withoutMessagingEnv } from "../support/environment";

const API_KEY = "sk_test_archive_77a0";
const ENDPOINT_URN = "urn:pulumi:dev::shop::messaging:index:WebhookEndpoint::orders";
const BATCH_URN = "urn:pulumi:dev::shop::messaging:index:MessageBatch::welcome";

let scratch: string;
let unpacked: string;
let archives: Partial<Record<Platform, string>>;
let executable: string;
let version: string;
let emulator: Emulator;
let plugin: ProviderPlugin;

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-archive-test-"));
  const packed = await packPlugin(path.join(scratch, "out"), PLATFORMS);
  version = packed.version;
  archives = packed.archives;
  unpacked = fs.mkdtempSync(path.join(scratch, "plugin-"));
  execFileSync("tar", ["-xzf", packed.archive, "-C", unpacked]);
  executable = path.join(unpacked, path.basename(packed.executable));
  emulator = await startEmulator({ apiKey: API_KEY });
  // PATH holds no `node`: the standalone executable carries its own.
  const noNode = fs.mkdtempSync(path.join(scratch, "path-"));
  plugin = await startProviderPlugin(executable, { cwd: unpacked, env: withoutMessagingEnv({ PATH: noNode }) });
});
afterAll(async () => {
  await plugin?.close();
  await emulator?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

const listing = (archive: string): string[] => execFileSync("tar", ["-tzf", archive], { encoding: "utf8" }).trim().split("\n").sort();
const manifestOf = (archive: string): { version: string; pulumiPlugin: Record<string, unknown> } =>
  JSON.parse(execFileSync("tar", ["-xzOf", archive, "./package.json"], { encoding: "utf8" }));

test("one archive a platform, named as pulumi plugin install asks for it, each one executable needing no node, its manifest saying which runtime it holds", () => {
  expect(Object.fromEntries(Object.entries(archives).map(([platform, archive]) => [platform, path.basename(archive)]))).toEqual({
    "linux-amd64": `pulumi-resource-messaging-v${version}-linux-amd64.tar.gz`,
    "linux-arm64": `pulumi-resource-messaging-v${version}-linux-arm64.tar.gz`,
    "darwin-amd64": `pulumi-resource-messaging-v${version}-darwin-amd64.tar.gz`,
    "darwin-arm64": `pulumi-resource-messaging-v${version}-darwin-arm64.tar.gz`,
    "windows-amd64": `pulumi-resource-messaging-v${version}-windows-amd64.tar.gz`,
    "windows-arm64": `pulumi-resource-messaging-v${version}-windows-arm64.tar.gz`,
  });
  const standalone = ["./LICENSE", "./LICENSE.node", "./THIRD-PARTY-NOTICES.txt", "./package.json"];
  expect(listing(archives["linux-amd64"]!)).toEqual(["./", ...standalone, "./pulumi-resource-messaging"].sort());
  expect(listing(archives["linux-arm64"]!)).toEqual(["./", ...standalone, "./pulumi-resource-messaging"].sort());
  expect(listing(archives["windows-amd64"]!)).toEqual(["./", ...standalone, "./pulumi-resource-messaging.exe"].sort());
  for (const platform of ["darwin-amd64", "darwin-arm64"] as const) {
    expect(listing(archives[platform]!)).toEqual(
      ["./", "./LICENSE", "./LICENSE.bun", "./THIRD-PARTY-NOTICES.txt", "./package.json", "./pulumi-resource-messaging"].sort(),
    );
    expect(manifestOf(archives[platform]!).pulumiPlugin).toEqual({ platform, standalone: true, bun: "1.4.4" });
  }
  expect(listing(archives["windows-arm64"]!)).toEqual(
    ["./", "./LICENSE", "./LICENSE.bun", "./THIRD-PARTY-NOTICES.txt", "./package.json", "./pulumi-resource-messaging.exe"].sort(),
  );
  expect(manifestOf(archives["windows-arm64"]!).pulumiPlugin).toEqual({ platform: "windows-arm64", standalone: true, bun: "1.4.4" });
  for (const platform of ["linux-amd64", "linux-arm64", "windows-amd64"] as const)
    expect(manifestOf(archives[platform]!).pulumiPlugin).toEqual({ platform, standalone: true, node: "22.23.3" });
  // Each executable is its platform's binary format: ELF for x86-64 or AArch64, PE for Windows, Mach-O 64 for darwin.
  const header = (platform: Platform, name: string): Buffer =>
    execFileSync("tar", ["-xzOf", archives[platform]!, `./${name}`], { maxBuffer: 512 * 1024 * 1024 }).subarray(0, 64);
  const elfMachine = (bytes: Buffer): number => bytes.readUInt16LE(18);
  expect(header("linux-amd64", "pulumi-resource-messaging").subarray(0, 4).toString("latin1")).toBe("\x7fELF");
  expect(elfMachine(header("linux-amd64", "pulumi-resource-messaging"))).toBe(62);
  expect(elfMachine(header("linux-arm64", "pulumi-resource-messaging"))).toBe(183);
  expect(header("windows-amd64", "pulumi-resource-messaging.exe").subarray(0, 2).toString("latin1")).toBe("MZ");
  expect(header("windows-arm64", "pulumi-resource-messaging.exe").subarray(0, 2).toString("latin1")).toBe("MZ");
  for (const platform of ["darwin-amd64", "darwin-arm64"] as const)
    expect(header(platform, "pulumi-resource-messaging").readUInt32LE(0)).toBe(0xfeedfacf);
  // Within the budget: at most 50 MiB compressed.
  expect(fs.statSync(archives["linux-amd64"]!).size).toBeLessThanOrEqual(50 * 1024 * 1024);
});

test("this machine's archive unpacks to its executable alone, no node_modules, nothing above it resolving a module", () => {
  const files = execFileSync("find", [".", "-type", "f"], { cwd: unpacked, encoding: "utf8" }).trim().split("\n").sort();
  expect(files).toEqual(["./LICENSE", "./LICENSE.node", "./THIRD-PARTY-NOTICES.txt", "./package.json", "./pulumi-resource-messaging"]);
  for (let dir = unpacked; dir !== path.dirname(dir); dir = path.dirname(dir))
    expect(fs.existsSync(path.join(dir, "node_modules"))).toBe(false);
});

test("the unpacked plugin, with no node on PATH, reports its version and the schema the source derives, takes its config, and creates, diffs, reads and deletes against the emulator", async () => {
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
