/** check and diff of WebhookEndpoint as pure functions (the engine tests run them through the host). */
import { check, createIdempotencyKey, diff } from "../../provider/webhook-endpoint-runtime";
import { UNKNOWN } from "../../provider/unknown";

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
  const request = { url: "https://a.example.com", events: ["x", "y"], format: "basic" };
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
