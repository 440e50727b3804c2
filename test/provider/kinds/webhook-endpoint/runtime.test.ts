/** The WebhookEndpoint runtime as functions of a test context (the engine tests run it through the host). */
import { testContext } from "../../../support/provider-context";
import { nullEndpointState } from "../../../support/endpoint-state";
import { parseResponseBody } from "../../../../client/response";
import { ResponseSchemaError } from "../../../../errors";
import { PROVIDER_KEY, ResourceInitFailedError, UNKNOWN } from "../../../../provider/protocol";
import { webhookEndpoint } from "../../../../provider/kinds/webhook-endpoint";
import * as endpointRuntime from "../../../../provider/kinds/webhook-endpoint/runtime";
import { CLOCK_MARGIN_MS, createIdempotencyKey } from "../../../../provider/kinds/webhook-endpoint/runtime";
import { IDEMPOTENCY_KEY_MEMORY_MS as KEY_MEMORY_MS } from "../../../../schemas/idempotency-key";

const impl = webhookEndpoint.implementation;
import { WebhookEndpointCreate, WebhookEndpointObject } from "../../../../schemas";
import { formFieldsOf } from "../../../../schemas/form-fields";

const check = (news: Record<string, unknown>) => impl.check(testContext(), {}, news);
const diff = (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) => impl.diff(testContext(), id, olds, news);

const valid = { url: "https://hooks.example.com/a", events: ["payment.succeeded"], __provider: "serialized" };

describe("check", () => {
  test("fills the default format, drops duplicate events keeping their order, keeps __provider", async () => {
    const result = await check({ ...valid, events: ["b.x", "a.y", "b.x"] });
    expect(result.failures).toBeUndefined();
    expect(result.inputs).toEqual({ url: valid.url, events: ["b.x", "a.y"], format: "basic", __provider: "serialized" });
  });

  test("returns one failure per bad property instead of throwing", async () => {
    const result = await check({ url: "ftp://x", events: [""], format: "xml", description: 5 });
    expect(result.failures).toEqual(
      expect.arrayContaining([
        { property: "url", reason: "expected an absolute http(s) URL" },
        { property: "events.0", reason: "expected a non-empty event type" },
        expect.objectContaining({ property: "format" }),
        expect.objectContaining({ property: "description" }),
      ]),
    );
  });

  test("missing required inputs are named", async () => {
    const properties = (await check({})).failures!.map((failure) => failure.property);
    expect(properties).toEqual(expect.arrayContaining(["url", "events"]));
  });

  test("preview unknowns pass through unvalidated; known fields are still checked", async () => {
    expect(await check({ url: UNKNOWN, events: [UNKNOWN] })).toEqual({ inputs: { url: UNKNOWN, events: [UNKNOWN], format: "basic" } });
    expect((await check({ url: UNKNOWN, events: [] })).failures).toEqual([
      { property: "events", reason: "expected at least one event type" },
    ]);
  });
});

test("an event type the spec does not name is kept as written and said once, with the closest named one", async () => {
  const context = testContext();
  const result = await impl.check(context, {}, { ...valid, events: ["payment.succeded", "payment.succeeded", "message.delivered"] });
  expect(result.failures).toBeUndefined();
  expect(result.inputs.events).toEqual(["payment.succeded", "payment.succeeded", "message.delivered"]);
  expect(context.warnings).toEqual([
    expect.stringMatching(/^warning: events\[0\]: "payment\.succeded" is not an event type .*\(did you mean payment\.succeeded\?\)/),
    expect.stringMatching(/^warning: events\[2\]: "message\.delivered" is not an event type the service is known to send\. It is/),
  ]);
  // Already subscribed to: said when it was new, not on every run.
  const again = testContext();
  await impl.check(again, { events: ["message.delivered"] }, { ...valid, events: ["message.delivered"] });
  expect(again.warnings).toEqual([]);
});

describe("diff", () => {
  const olds = { url: valid.url, events: ["a", "b"], format: "basic", description: null, secret: "s", etag: "e", __provider: "old" };
  const news = { url: valid.url, events: ["b", "a"], format: "basic", __provider: "new provider text" };

  test("no change: events compare as a set, a missing description equals null, __provider is ignored", async () => {
    expect(diff("we_1", olds, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  test.each([
    ["url", { url: "https://other.example.com" }],
    ["events", { events: ["a"] }],
    ["events", { events: ["a", "b", "c"] }],
    ["format", { format: "cloudEvents" }],
    ["description", { description: "now described" }],
  ])("a change to %s replaces", (field, change) => {
    expect(diff("we_1", olds, { ...news, ...change })).toEqual({ changes: true, replaces: [field], deleteBeforeReplace: false });
  });

  test("an unknown input may change: it replaces", async () => {
    expect(diff("we_1", olds, { ...news, url: UNKNOWN }).replaces).toEqual(["url"]);
    expect(diff("we_1", olds, { ...news, events: ["a", UNKNOWN] }).replaces).toEqual(["events"]);
  });
});

describe("createIdempotencyKey", () => {
  const request = { url: "https://a.example.com", events: ["x", "y"], format: "basic" as const };
  test("the same resource with the same inputs gets the same key on every up; event order does not matter", async () => {
    const key = createIdempotencyKey("proj/dev/payments", request);
    // Golden: an up after an upgrade must find the endpoint an earlier version's create made.
    expect(key).toBe("we-create-b523fac424211733c243ec63f5f4b0e3c65ce84462dbab1fc3b76f7c4b84f1d2");
    expect(createIdempotencyKey("proj/dev/payments", { ...request, events: ["y", "x"] })).toBe(key);
  });
  test("another resource, stack or input gets another key", async () => {
    const key = createIdempotencyKey("proj/dev/payments", request);
    expect(createIdempotencyKey("proj/prod/payments", request)).not.toBe(key);
    expect(createIdempotencyKey("proj/dev/identity", request)).not.toBe(key);
    expect(createIdempotencyKey("proj/dev/payments", { ...request, url: "https://b.example.com" })).not.toBe(key);
    expect(createIdempotencyKey("proj/dev/payments", { ...request, description: "d" })).not.toBe(key);
  });
  test("every create field counts, in schema order; a field added later and left unset changes no key", async () => {
    const fields = [...formFieldsOf(WebhookEndpointCreate), { key: "labels", name: "labels[]", repeated: true }];
    const key = createIdempotencyKey("proj/dev/payments", request);
    expect(createIdempotencyKey("proj/dev/payments", request, fields)).toBe(key);
    const labelled = { ...request, labels: ["team-a"] } as typeof request;
    expect(createIdempotencyKey("proj/dev/payments", labelled, fields)).not.toBe(key);
    // Golden, with every field set: a description and a format are in the key as given.
    expect(
      createIdempotencyKey("proj/dev/payments", {
        url: "https://a.example.com",
        events: ["y", "x"],
        format: "cloudEvents",
        description: "billing",
      }),
    ).toBe("we-create-17e0fe1f8fb12d2ae39d15a43a728dfae652d7201b5daf723820b834d8878225");
    expect(createIdempotencyKey("proj/dev/payments", { ...request, format: "cloudEvents" })).not.toBe(key);
  });
  test("without a scope the client picks a random key", async () => {
    expect(createIdempotencyKey(undefined, request)).toBeUndefined();
  });
});

/** What the client returns for a 2xx endpoint answer with this body (the lenient parse included). */
function answered(body: Record<string, unknown>): WebhookEndpointObject {
  const response = { status: 200, headers: {}, json: body, empty: false, redact: (text: string) => text };
  return parseResponseBody(WebhookEndpointObject, response, { method: "POST", path: "/v1/webhooks/endpoints" });
}

/** A ResponseSchemaError as the client throws it for an endpoint answer with an id and no readable secret. */
const unreadableSecret = (id: string, idempotencyKey = "we-create-k") =>
  new ResponseSchemaError(
    { method: "POST", path: "/v1/webhooks/endpoints", idempotencyKey },
    { secret: ["expected a non-empty signing secret"] },
    id,
  );

describe("a create answer with a usable id and secret but odd other fields", () => {
  test("keeps the id and secret, records the odd fields as null, and warns naming them (never the secret)", async () => {
    const answer = answered({ id: "we_odd", secret: "whsec_kept", created: 1717200000, live: "yes", etag: "e1" });
    const context = testContext({ createWebhookEndpoint: async () => answer });
    const result = await impl.create(context, { url: valid.url, events: ["a"], format: "basic", [PROVIDER_KEY]: "p" });
    expect(result.id).toBe("we_odd");
    expect(result.outs).toMatchObject({ secret: "whsec_kept", etag: "e1", created: null, live: null });
    expect(context.warnings).toHaveLength(1);
    expect(context.warnings[0]).toMatch(
      /we_odd: the service's answer had fields that could not be read, recorded as null: created \(.+\), live \(.+\)/,
    );
    expect(context.warnings[0]).not.toContain("whsec_kept");
  });

  test("a well-formed answer warns of nothing", async () => {
    const context = testContext({
      createWebhookEndpoint: async () => answered({ id: "we_ok", secret: "whsec_ok", created: "2026-01-01" }),
    });
    await impl.create(context, { url: valid.url, events: ["a"], format: "basic" });
    expect(context.warnings).toEqual([]);
  });
});

describe("a half-made endpoint (its create answer could not be read)", () => {
  // Every create field, recorded: those left unset as null.
  const unset = Object.fromEntries(Object.keys(WebhookEndpointCreate.shape).map((key) => [key, null]));
  const request = { ...unset, url: valid.url, events: ["b", "a"], format: "basic", description: "d" };
  const aMinuteAgo = new Date(Date.now() - 60_000).toISOString();
  const halfMade = (record: Record<string, unknown> = {}) => ({
    ...nullEndpointState(),
    ...request,
    createIdempotencyKey: "we-create-k",
    createRequestedAt: aMinuteAgo,
    strayEndpointId: null,
    __provider: "p",
    ...record,
  });

  test("migrate: golden recorded states, each field as recorded or null (an earlier release's half-made record lacks three)", async () => {
    const { __provider: _provider, ...recorded } = halfMade();
    expect(endpointRuntime.migrate(halfMade())).toEqual(recorded);
    const earlier = { ...request, secret: null, __provider: "p" };
    expect(endpointRuntime.migrate(earlier)).toMatchObject({
      ...request,
      secret: null,
      etag: null,
      workspace: null,
      createIdempotencyKey: null,
      createRequestedAt: null,
      strayEndpointId: null,
    });
    expect(endpointRuntime.migrate({ ...halfMade(), createRequestedAt: "yesterday", live: "yes" })).toMatchObject({
      createRequestedAt: null,
      live: null,
      createIdempotencyKey: "we-create-k",
    });
  });
  const news = { ...request, events: ["a", "b"], [PROVIDER_KEY]: "new provider" };
  const calls: Array<{ request: unknown; idempotencyKey: unknown }> = [];
  const client = (answer: () => Promise<unknown>) => ({
    createWebhookEndpoint: async (request: unknown, options: { idempotencyKey?: string }) => {
      calls.push({ request, idempotencyKey: options.idempotencyKey });
      return answer();
    },
  });
  beforeEach(() => calls.splice(0));

  test("create records it with reasons, its idempotency key, when it was sent, and the serialized provider", async () => {
    const before = Date.now();
    const failure = await impl
      .create(testContext(client(async () => Promise.reject(unreadableSecret("we_lost", "we-create-abc")))), {
        url: valid.url,
        events: ["a"],
        format: "basic",
        [PROVIDER_KEY]: "serialized",
      })
      .catch((e) => e);
    expect(failure).toBeInstanceOf(ResourceInitFailedError);
    expect(failure.id).toBe("we_lost");
    expect(failure.reasons).toHaveLength(1);
    expect(failure.reasons[0]).toMatch(
      /we_lost was created.*secret is unknown \(secret \(expected a non-empty signing secret\)\).*next `pulumi up` asks the service again under the same idempotency key/,
    );
    expect(failure.reasons[0]).not.toMatch(/remove|replace/i);
    expect(failure.properties).toMatchObject({
      url: valid.url,
      secret: null,
      createIdempotencyKey: "we-create-abc",
      strayEndpointId: null,
      [PROVIDER_KEY]: "serialized",
    });
    expect(Date.parse(failure.properties.createRequestedAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  test("diff: unchanged inputs are a change without replacement (the engine calls update), and diff prints nothing", async () => {
    const context = testContext();
    expect(impl.diff(context, "we_half", halfMade(), news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect(impl.diff(context, "we_half", halfMade(), { ...news, url: "https://other.example.com" })).toEqual({
      changes: true,
      replaces: ["url"],
      deleteBeforeReplace: false,
    });
    expect(context.warnings).toEqual([]);
  });

  test("read returns it as recorded, so refresh keeps it", async () => {
    expect(impl.read(testContext(), "we_half", halfMade())).toEqual({ id: "we_half", props: halfMade() });
  });

  test("update asks again with the recorded request and key; the same id with a secret converges", async () => {
    const context = testContext(client(async () => answered({ id: "we_half", secret: "whsec_now", etag: "e2" })));
    const updated = await impl.update(context, "we_half", halfMade(), news);
    // The request exactly as first sent (events in the recorded order), under the create's key.
    expect(calls).toEqual([
      { request: { url: valid.url, events: ["b", "a"], format: "basic", description: "d" }, idempotencyKey: "we-create-k" },
    ]);
    expect(updated.outs).toEqual({ ...nullEndpointState(), ...request, secret: "whsec_now", etag: "e2", serviceUrl: null });
    expect(context.warnings).toEqual([]);
  });

  test("unreadable again: an init failure with the same id and the way out (adopt with the dashboard's secret)", async () => {
    const failure = await impl
      .update(testContext(client(async () => Promise.reject(unreadableSecret("we_half")))), "we_half", halfMade(), news)
      .catch((e) => e);
    expect(failure).toBeInstanceOf(ResourceInitFailedError);
    expect(failure.id).toBe("we_half");
    expect(failure.reasons[0]).toMatch(
      /same endpoint, and its signing secret still could not be read.*Developers → Webhooks.*adopt: \{ id: "we_half", secret: <the secret> \}/,
    );
    expect(failure.properties).toMatchObject({
      secret: null,
      createIdempotencyKey: "we-create-k",
      strayEndpointId: null,
      [PROVIDER_KEY]: "new provider",
    });
  });

  test.each([
    ["answered in full", async () => answered({ id: "we_second", secret: "whsec_second" })],
    ["answered without its secret", async () => Promise.reject(unreadableSecret("we_second"))],
  ])("another id (%s): an error naming both, the other recorded and its secret not; never asked a third time", async (_case, answer) => {
    const failure = await impl.update(testContext(client(answer)), "we_half", halfMade(), news).catch((e) => e);
    expect(failure).toBeInstanceOf(ResourceInitFailedError);
    expect(failure.id).toBe("we_half");
    expect(failure.reasons[0]).toMatch(
      /service made another endpoint, we_second, instead of returning we_half.*The stack keeps we_half.*we_second is not in the stack.*adopt: \{ id: "we_half"/s,
    );
    expect(failure.reasons[0]).not.toMatch(/remove (it|we_half)/);
    expect(failure.properties).toMatchObject({ secret: null, strayEndpointId: "we_second" });
    expect(JSON.stringify(failure.properties)).not.toContain("whsec_second");

    const again = await impl.update(testContext(), "we_half", failure.properties, news).catch((e) => e);
    expect(again.reasons[0]).toMatch(/another endpoint, we_second/);
    expect(calls).toHaveLength(1);
  });

  test.each([
    [
      "older than the service remembers keys",
      { createRequestedAt: new Date(Date.now() - KEY_MEMORY_MS - 1000).toISOString() },
      /too long ago to rely on the service still remembering its idempotency key/,
    ],
    [
      "within the clock margin of that",
      { createRequestedAt: new Date(Date.now() - KEY_MEMORY_MS + CLOCK_MARGIN_MS / 2).toISOString() },
      /too long ago/,
    ],
    [
      "recorded by an earlier release (no key, no time)",
      { createIdempotencyKey: undefined, createRequestedAt: undefined, strayEndpointId: undefined },
      /earlier release/,
    ],
    ["recorded with a key but no readable time", { createRequestedAt: "yesterday" }, /earlier release/],
  ])("%s: the service is not called; the failure gives the way out", async (_case, record, why) => {
    const failure = await impl.update(testContext(), "we_half", halfMade(record), news).catch((e) => e);
    expect(failure).toBeInstanceOf(ResourceInitFailedError);
    expect(failure.reasons[0]).toMatch(why);
    expect(failure.reasons[0]).toMatch(/nothing was sent.*adopt: \{ id: "we_half"/s);
  });

  test("another failure (the service unreachable) is thrown as it is: the engine keeps the old state", async () => {
    const failure = await impl
      .update(testContext(client(async () => Promise.reject(new Error("connect ECONNREFUSED")))), "we_half", halfMade(), news)
      .catch((e) => e);
    expect(failure).not.toBeInstanceOf(ResourceInitFailedError);
    expect(failure.message).toBe("connect ECONNREFUSED");
  });

  test("adopting it with the dashboard's secret is an in-place update with no call; the record's extra keys go", async () => {
    const adopt = { id: "we_half", secret: "whsec_dash" };
    expect(impl.diff(testContext(), "we_half", halfMade(), { ...news, adopt })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    const updated = await impl.update(testContext(), "we_half", halfMade(), { ...news, adopt });
    expect(updated.outs).toEqual({ ...nullEndpointState(), ...request, secret: "whsec_dash", serviceUrl: null });
  });
});

describe("adopt", () => {
  const adopt = { id: "we_dash", secret: "whsec_dash" };
  test("create records the given endpoint without calling the service", async () => {
    const result = await impl.create(testContext(), { url: valid.url, events: ["a"], format: "basic", adopt });
    expect(result.id).toBe("we_dash");
    expect(result.outs).toMatchObject({ url: valid.url, secret: "whsec_dash", etag: null });
  });
  test("check names a bad adopt field", async () => {
    expect((await check({ ...valid, adopt: { id: "nope", secret: "" } })).failures).toEqual(
      expect.arrayContaining([expect.objectContaining({ property: "adopt.id" }), expect.objectContaining({ property: "adopt.secret" })]),
    );
  });
  const recorded = { url: valid.url, events: ["a"], format: "basic", description: null, secret: "whsec_dash", __provider: "p" };
  test("removing adopt afterwards changes nothing; another id replaces; another secret updates in place", async () => {
    const news = { url: valid.url, events: ["a"], format: "basic" };
    expect(diff("we_dash", recorded, news).changes).toBe(false);
    expect(diff("we_dash", recorded, { ...news, adopt }).changes).toBe(false);
    expect(diff("we_dash", recorded, { ...news, adopt: { ...adopt, id: "we_other" } }).replaces).toEqual(["adopt"]);
    expect(diff("we_dash", recorded, { ...news, adopt: { ...adopt, secret: "whsec_fixed" } })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    const updated = await impl.update(testContext(), "we_dash", recorded, { ...news, adopt: { ...adopt, secret: "whsec_fixed" } });
    expect(updated.outs).toMatchObject({ url: valid.url, events: ["a"], format: "basic", description: null, secret: "whsec_fixed" });
  });

  test("changing an adopted endpoint's other inputs is refused by check, one failure per input, saying why and what to do", async () => {
    const olds = { url: valid.url, events: ["a"], format: "basic", adopt };
    const result = await impl.check(testContext(), olds, {
      ...olds,
      url: "https://moved.example.com",
      events: ["a", "b"],
      description: "d",
    });
    expect(result.failures!.map((failure) => failure.property)).toEqual(["url", "events", "description"]);
    expect(result.failures![0].reason).toMatch(
      /we_dash is an adopted endpoint, recorded as you described it, and the service has no operation to change its url.*Keep the old value, or remove `adopt`.*we_dash is then left in place/,
    );
    // Unchanged inputs, reordered events, another adopted id, or no adopt any more: no failure.
    expect((await impl.check(testContext(), olds, { ...olds, events: ["a", "a"] })).failures).toBeUndefined();
    expect(
      (await impl.check(testContext(), olds, { ...olds, url: "https://moved.example.com", adopt: { ...adopt, id: "we_other" } })).failures,
    ).toBeUndefined();
    expect((await impl.check(testContext(), olds, { url: "https://moved.example.com", events: ["a"] })).failures).toBeUndefined();
    // A value not known yet in a preview is not refused.
    expect((await impl.check(testContext(), olds, { ...olds, url: UNKNOWN })).failures).toBeUndefined();
  });

  test("adopt naming the recorded endpoint with changed inputs is refused by diff too (old inputs without adopt)", async () => {
    expect(() => diff("we_dash", recorded, { url: "https://moved.example.com", events: ["a"], format: "basic", adopt })).toThrow(
      /we_dash is an adopted endpoint.*change its url/,
    );
    // Only unknown at preview: replaced as any change may be; diff runs again with known values at up.
    expect(diff("we_dash", recorded, { url: UNKNOWN, events: ["a"], format: "basic", adopt }).replaces).toEqual(["url"]);
  });
});
