/**
 * A half-made WebhookEndpoint (its create answered with an id but no readable secret) through
 * the real SDK and dynamic-provider host, against the emulator with its idempotency replay on;
 * a proxy spoils or alters the emulator's answers. Each test counts the endpoints the emulator
 * made: one per resource, whatever happens between runs, or a failure saying what to do.
 */
import { startEmulator } from "../../emulator";
import { isSecretWrapper } from "../../engine/secrets";
import { MessagingClient } from "../../client";
import { ENDPOINT, useEngineSuite } from "./engine-suite";
import { startRefusingProxy, type AlterAnswer, type RefusingProxy } from "./fake-services";
import { expectOk, opsByName, plain, resourceNamed, stepsOf } from "./harness";
import { editResource } from "./state-fixtures";
import type { EngineResult } from "../../engine/plan";

const API_KEY = "sk_test_engine_half_made_3c9d";

const suite = useEngineSuite(API_KEY, "endpoint-stack");

/** The create's answer as a service whose answer lost the secret sends it (the endpoint was made). */
const withoutSecret: AlterAnswer = (answer, path) => {
  if (!path.startsWith("/v1/webhooks/endpoints")) return answer;
  const { secret: _secret, ...rest } = answer;
  return rest;
};

/** Everything the provider and the engine said, for checks on what users are told. */
const said = (result: EngineResult): string => [...result.errors, ...result.providerStderr].join("\n");

/** No message may advise removing an endpoint the stack holds. */
function expectNoRemovalAdvice(result: EngineResult, held: string): void {
  expect(said(result)).not.toMatch(new RegExp(`remove (it|${held})`, "i"));
  expect(said(result)).not.toMatch(/will be replaced/);
}

let proxy: RefusingProxy;
beforeAll(async () => {
  proxy = await startRefusingProxy(suite.emulator.url);
});
afterAll(async () => {
  await proxy?.close();
});
afterEach(() => {
  proxy.alterAnswer = undefined;
});

/** A stack whose endpoint (at `url`) reaches the emulator through the proxy. */
function stackAt(url: string, extra: Record<string, string> = {}) {
  const endpoint = { ...ENDPOINT, url };
  const config = (more: Record<string, string> = {}, adopt?: object) =>
    suite.endpointConfig(adopt ? { ...endpoint, adopt } : endpoint, { "messaging:baseUrl": proxy.url, ...extra, ...more });
  const stack = suite.workspace.stack(suite.project, { config: config() });
  const made = () => suite.emulator.endpoints().filter((recorded) => recorded.url === url);
  return { stack, config, made };
}

/** An up whose create answer lost its secret: the endpoint is made, and recorded half-made. */
async function halfMadeUp(stack: ReturnType<typeof stackAt>["stack"]) {
  proxy.alterAnswer = withoutSecret;
  const first = await stack.up();
  proxy.alterAnswer = undefined;
  expect(first.ok).toBe(false);
  const recorded = resourceNamed(stack, "main");
  expect(recorded.initErrors).toHaveLength(1);
  expect(plain(recorded.outputs.secret)).toBeNull();
  expectNoRemovalAdvice(first, recorded.id);
  expect(first.errors.join("\n")).toMatch(/next `pulumi up` asks the service again under the same idempotency key/);
  return { first, id: recorded.id };
}

test("only the first answer was spoiled: after a refresh, preview shows an update and says nothing; up gets the same endpoint with its secret", async () => {
  const { stack, made } = stackAt("https://hooks.example.com/half-made/lost-once");
  const { id } = await halfMadeUp(stack);
  expect(made().map((endpoint) => endpoint.id)).toEqual([id]);

  // Refresh clears the init error and prints nothing; the diff alone keeps the endpoint to be finished.
  const refreshed = expectOk(await stack.refresh());
  expect(refreshed.providerStderr).toEqual([]);
  expect(resourceNamed(stack, "main").initErrors).toEqual([]);
  const before = suite.emulator.requestCount();
  const preview = expectOk(await stack.preview());
  expect(stepsOf(preview)).toEqual([["update", id]]);
  expect(preview.providerStderr).toEqual([]);
  expect(suite.emulator.requestCount()).toBe(before);

  const up = expectOk(await stack.up());
  expect(stepsOf(up)).toEqual([["update", id]]);
  expectNoRemovalAdvice(up, id);
  // The emulator replayed its stored answer: still one endpoint, and its secret is recorded.
  expect(made().map((endpoint) => endpoint.id)).toEqual([id]);
  expect(up.outputs.secret).toEqual(expect.objectContaining({ value: made()[0].secret }));
  expect(isSecretWrapper(resourceNamed(stack, "main").outputs.secret)).toBe(true);
  expect(stack.stateText()).not.toContain(made()[0].secret);

  const after = suite.emulator.requestCount();
  expect(opsByName(expectOk(await stack.up()))).toEqual({ main: "same" });
  expect(suite.emulator.requestCount()).toBe(after);
});

test("the service replays the unreadable answer: the next up fails with the way out, makes nothing, and adopt finishes it with no call", async () => {
  const { stack, config, made } = stackAt("https://hooks.example.com/half-made/replayed");
  const { id } = await halfMadeUp(stack);

  proxy.alterAnswer = withoutSecret;
  const second = await stack.up();
  expect(second.ok).toBe(false);
  expect(stepsOf(second)).toEqual([["update", id]]);
  expect(second.errors.join("\n")).toMatch(
    new RegExp(`same endpoint, and its signing secret still could not be read.*Developers → Webhooks.*adopt: \\{ id: "${id}"`, "s"),
  );
  expectNoRemovalAdvice(second, id);
  expect(made()).toHaveLength(1);
  // Recorded as the engine records a partly failed update: same id, the reasons, still half-made.
  expect(resourceNamed(stack, "main")).toMatchObject({ id, initErrors: [expect.stringContaining("adopt")] });
  proxy.alterAnswer = undefined;

  // The way out: the secret from the dashboard (here, the emulator's record), declared with adopt.
  const adopted = suite.workspace.stack(suite.project, { config: config({}, { id, secret: made()[0].secret }), continues: stack });
  const before = suite.emulator.requestCount();
  const up = expectOk(await adopted.up());
  expect(stepsOf(up)).toEqual([["update", id]]);
  expect(suite.emulator.requestCount()).toBe(before);
  expect(plain(up.outputs.secret)).toBe(made()[0].secret);
  expect(opsByName(expectOk(await adopted.up()))).toEqual({ main: "same" });
  expect(made()).toHaveLength(1);
});

test("a service that forgot the key makes a second endpoint: the error names both, and the service is not asked again", async () => {
  // Remembers one key: any other keyed request pushes the create's key out.
  const forgetful = await startEmulator({ apiKey: API_KEY, idempotencyMaxKeys: 1 });
  const forgetfulProxy = await startRefusingProxy(forgetful.url);
  const client = new MessagingClient({ apiKey: API_KEY, baseUrl: forgetful.url });
  try {
    const url = "https://hooks.example.com/half-made/forgotten";
    const stack = suite.workspace.stack(suite.project, {
      config: suite.endpointConfig({ ...ENDPOINT, url }, { "messaging:baseUrl": forgetfulProxy.url }),
    });
    forgetfulProxy.alterAnswer = withoutSecret;
    expect((await stack.up()).ok).toBe(false);
    forgetfulProxy.alterAnswer = undefined;
    const id = resourceNamed(stack, "main").id;
    await client.createWebhookEndpoint({ url: "https://hooks.example.com/unrelated", events: ["payment.succeeded"] });

    const second = await stack.up();
    expect(second.ok).toBe(false);
    const made = forgetful.endpoints().filter((endpoint) => endpoint.url === url);
    expect(made).toHaveLength(2);
    const other = made.find((endpoint) => endpoint.id !== id)!.id;
    expect(second.errors.join("\n")).toMatch(
      new RegExp(
        `service made another endpoint, ${other}, instead of returning ${id}.*The stack keeps ${id}.*${other} is not in the stack`,
        "s",
      ),
    );
    expectNoRemovalAdvice(second, id);
    // Never a silent switch: the stack still holds the first endpoint, without the other's secret.
    const recorded = resourceNamed(stack, "main");
    expect(recorded).toMatchObject({ id, outputs: expect.objectContaining({ strayEndpointId: other }) });
    expect(plain(recorded.outputs.secret)).toBeNull();
    expect(stack.stateText()).not.toContain(made.find((endpoint) => endpoint.id === other)!.secret);

    const before = forgetful.requestCount();
    const third = await stack.up();
    expect(third.ok).toBe(false);
    expect(third.errors.join("\n")).toMatch(new RegExp(`another endpoint, ${other}`));
    expect(forgetful.requestCount()).toBe(before);
    expect(forgetful.endpoints().filter((endpoint) => endpoint.url === url)).toHaveLength(2);
  } finally {
    await client.close();
    await forgetfulProxy.close();
    await forgetful.close();
  }
});

test("a half-made record older than the service's key memory: the service is not called, and the failure gives the way out", async () => {
  const { stack, made } = stackAt("https://hooks.example.com/half-made/too-old");
  const { id } = await halfMadeUp(stack);
  const dayAndMore = new Date(Date.now() - 25 * 60 * 60 * 1000).toISOString();
  editResource(stack, "main", (resource) => ({ ...resource, outputs: { ...resource.outputs, createRequestedAt: dayAndMore } }));

  const before = suite.emulator.requestCount();
  const up = await stack.up();
  expect(up.ok).toBe(false);
  expect(suite.emulator.requestCount()).toBe(before);
  expect(up.errors.join("\n")).toMatch(
    new RegExp(
      `${id} was created at ${dayAndMore}, too long ago to rely on the service still remembering its idempotency key.*nothing was sent.*adopt`,
      "s",
    ),
  );
  expectNoRemovalAdvice(up, id);
  expect(made()).toHaveLength(1);
});

test("with changed inputs, a half-made endpoint is replaced like any other; the old one is retained", async () => {
  const { stack, made } = stackAt("https://hooks.example.com/half-made/changed");
  const { id } = await halfMadeUp(stack);
  const moved = { ...ENDPOINT, url: "https://hooks.example.com/half-made/changed-v2" };
  const changed = suite.workspace.stack(suite.project, {
    config: suite.endpointConfig(moved, { "messaging:baseUrl": proxy.url }),
    continues: stack,
  });
  const up = expectOk(await changed.up());
  const newId = up.outputs.id as string;
  expect(stepsOf(up)).toEqual([
    ["replace[retain]", newId],
    ["delete-replaced[retain]", id],
  ]);
  expectNoRemovalAdvice(up, newId);
  expect(made()).toHaveLength(1);
  expect(plain(up.outputs.secret)).toBe(suite.emulator.endpoints().find((endpoint) => endpoint.id === newId)!.secret);
});

test("an answer with a usable id and secret and an odd created: kept, the odd field null, a warning from create naming it", async () => {
  const { stack, made } = stackAt("https://hooks.example.com/half-made/odd-created");
  proxy.alterAnswer = (answer, path) => (path.startsWith("/v1/webhooks/endpoints") ? { ...answer, created: 1717200000 } : answer);
  const up = expectOk(await stack.up());
  expect(made()).toHaveLength(1);
  expect(up.outputs.id).toBe(made()[0].id);
  expect(plain(up.outputs.secret)).toBe(made()[0].secret);
  expect(resourceNamed(stack, "main").outputs).toMatchObject({ created: null, etag: made()[0].etag });
  expect(up.providerStderr.join("\n")).toMatch(/fields that could not be read, recorded as null: created \(/);
  expect(up.providerStderr.join("\n")).not.toContain(made()[0].secret);
});

test("changing an adopted endpoint's url is refused at preview and up, saying why and what to do; removing adopt then makes a real endpoint", async () => {
  const url = "https://hooks.example.com/adopted";
  const adopt = { id: "we_from_dashboard_1", secret: "whsec_from_dashboard_1" };
  const config = (endpointUrl: string, withAdopt: boolean) =>
    suite.endpointConfig({ ...ENDPOINT, url: endpointUrl, ...(withAdopt ? { adopt } : {}) });
  const stack = suite.workspace.stack(suite.project, { config: config(url, true) });
  expect(expectOk(await stack.up()).outputs.id).toBe(adopt.id);

  const before = suite.emulator.requestCount();
  const moved = suite.workspace.stack(suite.project, { config: config(`${url}/v2`, true), continues: stack });
  for (const result of [await moved.preview(), await moved.up()]) {
    expect(result.ok).toBe(false);
    expect(result.errors.join("\n")).toMatch(
      /property url value \{https:\/\/hooks.example.com\/adopted\/v2\} has a problem: we_from_dashboard_1 is an adopted endpoint.*no operation to change its url.*remove `adopt`/,
    );
  }
  expect(resourceNamed(stack, "main").outputs.url).toBe(url);
  expect(suite.emulator.requestCount()).toBe(before);

  const created = expectOk(await suite.workspace.stack(suite.project, { config: config(`${url}/v2`, false), continues: stack }).up());
  expect(stepsOf(created)).toEqual([
    ["replace[retain]", created.outputs.id],
    ["delete-replaced[retain]", adopt.id],
  ]);
  expect(
    suite.emulator
      .endpoints()
      .filter((endpoint) => endpoint.url === `${url}/v2`)
      .map((endpoint) => endpoint.id),
  ).toEqual([created.outputs.id]);
});
