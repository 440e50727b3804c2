/** The WebhookEndpoint runtime as functions of a test context (the engine tests run it through the host). */
import { testContext } from "./test-context";
import { PROVIDER_KEY, ResourceInitFailedError, UNKNOWN } from "../../provider/protocol";
import * as endpoint from "../../provider/webhook-endpoint-runtime";
import { createIdempotencyKey } from "../../provider/webhook-endpoint-runtime";

const check = (news: Record<string, unknown>) => endpoint.check(testContext(), {}, news);
const diff = (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) => endpoint.diff(testContext(), id, olds, news);

const valid = { url: "https://hooks.example.com/a", events: ["payment.succeeded"], __provider: "serialized" };

describe("check", () => {
  test("fills the default format, drops duplicate events keeping their order, keeps __provider", () => {
    const result = check({ ...valid, events: ["b.x", "a.y", "b.x"] });
    expect(result.failures).toBeUndefined();
    expect(result.inputs).toEqual({ url: valid.url, events: ["b.x", "a.y"], format: "basic", __provider: "serialized" });
  });

  test("returns one failure per bad property instead of throwing", () => {
    const result = check({ url: "ftp://x", events: [""], format: "xml", description: 5 });
    expect(result.failures).toEqual(
      expect.arrayContaining([
        { property: "url", reason: "expected an absolute http(s) URL" },
        { property: "events.0", reason: "expected a non-empty event type" },
        expect.objectContaining({ property: "format" }),
        expect.objectContaining({ property: "description" }),
      ]),
    );
  });

  test("missing required inputs are named", () => {
    const properties = check({}).failures!.map((failure) => failure.property);
    expect(properties).toEqual(expect.arrayContaining(["url", "events"]));
  });

  test("preview unknowns pass through unvalidated; known fields are still checked", () => {
    expect(check({ url: UNKNOWN, events: [UNKNOWN] })).toEqual({ inputs: { url: UNKNOWN, events: [UNKNOWN], format: "basic" } });
    expect(check({ url: UNKNOWN, events: [] }).failures).toEqual([{ property: "events", reason: "expected at least one event type" }]);
  });
});

describe("diff", () => {
  const olds = { url: valid.url, events: ["a", "b"], format: "basic", description: null, secret: "s", etag: "e", __provider: "old" };
  const news = { url: valid.url, events: ["b", "a"], format: "basic", __provider: "new provider text" };

  test("no change: events compare as a set, a missing description equals null, __provider is ignored", () => {
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

  test("an unknown input may change: it replaces", () => {
    expect(diff("we_1", olds, { ...news, url: UNKNOWN }).replaces).toEqual(["url"]);
    expect(diff("we_1", olds, { ...news, events: ["a", UNKNOWN] }).replaces).toEqual(["events"]);
  });
});

describe("createIdempotencyKey", () => {
  const request = { url: "https://a.example.com", events: ["x", "y"], format: "basic" as const };
  test("the same resource with the same inputs gets the same key on every up; event order does not matter", () => {
    const key = createIdempotencyKey("proj/dev/payments", request);
    expect(key).toMatch(/^we-create-[0-9a-f]{64}$/);
    expect(createIdempotencyKey("proj/dev/payments", { ...request, events: ["y", "x"] })).toBe(key);
  });
  test("another resource, stack or input gets another key", () => {
    const key = createIdempotencyKey("proj/dev/payments", request);
    expect(createIdempotencyKey("proj/prod/payments", request)).not.toBe(key);
    expect(createIdempotencyKey("proj/dev/identity", request)).not.toBe(key);
    expect(createIdempotencyKey("proj/dev/payments", { ...request, url: "https://b.example.com" })).not.toBe(key);
    expect(createIdempotencyKey("proj/dev/payments", { ...request, description: "d" })).not.toBe(key);
  });
  test("without a scope the client picks a random key", () => {
    expect(createIdempotencyKey(undefined, request)).toBeUndefined();
  });
});

describe("a half-made endpoint (its create answer could not be read)", () => {
  const halfMade = { url: valid.url, events: ["a"], format: "basic", description: null, secret: null, etag: null, __provider: "p" };

  test("diff replaces it even with unchanged inputs, and warns that the old one stays active", () => {
    const context = testContext();
    const result = endpoint.diff(context, "we_half", halfMade, { url: valid.url, events: ["a"], format: "basic", __provider: "p" });
    expect(result).toEqual({ changes: true, replaces: ["secret"], deleteBeforeReplace: false });
    expect(context.warnings.join("\n")).toMatch(/we_half will be replaced \(its signing secret was never received\).*stays active/);
  });

  test("read returns it as recorded, so refresh keeps it", () => {
    expect(endpoint.read(testContext(), "we_half", halfMade)).toEqual({ id: "we_half", props: halfMade });
  });

  test("create records it with non-empty reasons and the serialized provider in its properties", async () => {
    const { ResponseSchemaError } = await import("../../errors");
    const client = {
      createWebhookEndpoint: async () => {
        throw new ResponseSchemaError(
          { method: "POST", path: "/v1/webhooks/endpoints" },
          { secret: ["expected a non-empty signing secret"] },
          "we_lost",
        );
      },
    };
    const failure = await endpoint
      .create(testContext(client), { url: valid.url, events: ["a"], format: "basic", [PROVIDER_KEY]: "serialized" })
      .catch((e) => e);
    expect(failure).toBeInstanceOf(ResourceInitFailedError);
    expect(failure.id).toBe("we_lost");
    expect(failure.reasons).toHaveLength(1);
    expect(failure.reasons[0]).toMatch(/we_lost was created.*secret is unknown.*next `pulumi up` replaces it/);
    expect(failure.properties).toMatchObject({ url: valid.url, secret: null, [PROVIDER_KEY]: "serialized" });
  });
});

describe("adopt", () => {
  const adopt = { id: "we_dash", secret: "whsec_dash" };
  test("create records the given endpoint without calling the service", async () => {
    const result = await endpoint.create(testContext(), { url: valid.url, events: ["a"], format: "basic", adopt });
    expect(result.id).toBe("we_dash");
    expect(result.outs).toMatchObject({ url: valid.url, secret: "whsec_dash", etag: null });
  });
  test("check names a bad adopt field", () => {
    expect(check({ ...valid, adopt: { id: "nope", secret: "" } }).failures).toEqual(
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
    const updated = await endpoint.update(testContext(), "we_dash", recorded, { ...news, adopt: { ...adopt, secret: "whsec_fixed" } });
    expect(updated.outs).toEqual({ url: valid.url, events: ["a"], format: "basic", description: null, secret: "whsec_fixed" });
  });
});
