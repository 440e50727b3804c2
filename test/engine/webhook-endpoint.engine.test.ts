/**
 * WebhookEndpoint through the real engine path: the packed package, the real SDK running
 * the program (closure serialization of the provider included) and the real
 * dynamic-provider host over gRPC, against the emulator.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { startEmulator, type Emulator } from "../../emulator";
import { startProviderHost } from "../../engine/provider-host";
import { SECRET_SIG } from "../../engine/secrets";
import { UNKNOWN } from "../../provider/unknown";
import { expectOk, opsByName, PackedWorkspace, plain, withoutMessagingEnv } from "./harness";

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
    expect(result.outputs.id).toBe(UNKNOWN);
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
    const state = JSON.parse(text);
    const provider: string = state.resources[0].inputs.__provider;
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
    expect(preview.steps.find((step) => step.name === "main")).toMatchObject({ op: "replace", replaces: [field] });

    const result = expectOk(await changedStack.up());
    const ops = result.steps.map((step) => [step.op, step.id]);
    const newId = result.outputs.id as string;
    expect(newId).toMatch(/^we_/);
    expect(newId).not.toBe(oldId);
    expect(ops).toEqual([["replace", newId], ["delete[retain]", oldId]]);
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
    expect(preview.outputs.followerUrl).toBe(UNKNOWN);

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
      ["main", "replace", ["url"]],
      ["follower", "replace", ["url"]],
    ]);
  });
});

describe("bad inputs fail check, naming the property, and change nothing", () => {
  test.each([
    ["url", { ...ENDPOINT, url: "not a url" }, /property url has a problem: expected an absolute http\(s\) URL/],
    ["events", { ...ENDPOINT, events: [] }, /property events has a problem: expected at least one event type/],
    ["format", { ...ENDPOINT, format: "xml" }, /property format has a problem/],
  ])("%s", async (_field, endpoint, message) => {
    const before = emulator.requestCount();
    const stack = workspace.stack(project, { config: config(endpoint) });
    for (const result of [await stack.preview(), await stack.up()]) {
      expect(result.ok).toBe(false);
      expect(result.errors.join("\n")).toMatch(message);
    }
    expect(emulator.requestCount()).toBe(before);
    expect(JSON.parse(stack.stateText()).resources).toEqual([]);
  });
});

describe("refresh, destroy, import, update", () => {
  test("refresh keeps the recorded state (there is no retrieve operation)", async () => {
    const stack = workspace.stack(project, { config: config() });
    expectOk(await stack.up());
    const before = stack.stateText();
    const requests = emulator.requestCount();
    const refreshed = expectOk(await stack.refresh());
    expect(opsByName(refreshed)).toEqual({ main: "refresh" });
    expect(stack.stateText()).toBe(before);
    expect(emulator.requestCount()).toBe(requests);
  });

  test("destroy retains by default and never calls the provider's delete", async () => {
    const stack = workspace.stack(project, { config: config() });
    const up = expectOk(await stack.up());
    // The program registered the endpoint with retainOnDelete (the default).
    expect(JSON.parse(stack.stateText()).resources[0].retainOnDelete).toBe(true);
    const destroyed = expectOk(await stack.destroy());
    expect(destroyed.steps.map((step) => [step.op, step.id])).toEqual([["delete[retain]", up.outputs.id]]);
    expect(destroyed.providerStderr).toEqual([]);
    expect(emulator.endpoints().some((endpoint) => endpoint.id === up.outputs.id)).toBe(true);
  });

  test("with retainOnDelete: false, destroy succeeds and says the endpoint stays in the service", async () => {
    const stack = workspace.stack(project, { config: config(ENDPOINT, { "endpoint-stack:retainOnDelete": "false" }) });
    const up = expectOk(await stack.up());
    const destroyed = expectOk(await stack.destroy());
    expect(destroyed.steps.map((step) => [step.op, step.id])).toEqual([["delete", up.outputs.id]]);
    const warning = destroyed.providerStderr.join("\n");
    expect(warning).toContain(`webhook endpoint ${up.outputs.id}`);
    expect(warning).toContain("stays active in the service");
    expect(warning).toContain("Developers → Webhooks");
    expect(JSON.parse(stack.stateText()).resources).toEqual([]);
  });

  test("import fails with the reason, and a direct update is refused", async () => {
    const stack = workspace.stack(project, { config: config() });
    const up = expectOk(await stack.up());
    const state = JSON.parse(stack.stateText());
    const { urn, inputs, outputs } = state.resources[0];
    const host = await startProviderHost(project, withoutMessagingEnv());
    try {
      await host.configure({}, []);
      await expect(host.read(urn, "we_someone_elses", { __provider: inputs.__provider })).rejects.toThrow(
        /Cannot import webhook endpoint we_someone_elses: the service has no operation to retrieve an endpoint/,
      );
      await expect(host.update(urn, up.outputs.id as string, outputs, { ...inputs, url: "https://x.example.com" })).rejects.toThrow(
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
    expect(JSON.parse(stack.stateText()).resources).toEqual([]);
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
    expect(JSON.parse(stack.stateText()).resources).toEqual([]);
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
    expect(JSON.parse(stack.stateText()).resources).toEqual([]);

    const second = expectOk(await stack.up());
    expect(opsByName(second)).toEqual({ main: "create" });
    expect(count()).toBe(1);
    expect(second.outputs.id).toBe(emulator.endpoints().find((e) => e.url === endpoint.url)!.id);
  });
});

describe("a create whose response cannot be read", () => {
  test("keeps the endpoint in state when the service returned its id", async () => {
    // The emulator always answers well; this server returns an endpoint without its secret.
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ id: "we_half_made", url: ENDPOINT.url }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const stack = workspace.stack(project, { config: { ...config(), "messaging:baseUrl": url } });
      const result = await stack.up();
      expect(result.ok).toBe(false);
      expect(result.errors.join("\n")).toContain("we_half_made");
      const state = JSON.parse(stack.stateText());
      expect(state.resources).toHaveLength(1);
      expect(state.resources[0]).toMatchObject({ id: "we_half_made", initError: expect.stringContaining("kept in state") });

      // The next up retries initialisation (an update, as the engine does); it says how to recover.
      const again = await stack.up();
      expect(again.ok).toBe(false);
      expect(again.errors.join("\n")).toContain("we_half_made was created but its answer could not be read");
      expect(JSON.parse(stack.stateText()).resources[0].id).toBe("we_half_made");
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
