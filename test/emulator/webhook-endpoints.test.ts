import { z } from "zod";
import { Problem, WebhookEndpointCreate, WebhookEndpointObject, describeFieldErrors } from "../../schemas";
import { wireNameOf } from "../../schemas/field-meta";
import { formFieldsOf } from "../../schemas/form-fields";
import { call, endpointForm, withEmulatorClient, emulatorForEachTest } from "../support/emulator";

/**
 * Every field of the endpoint object (spec §2.2), each required: the client's schema is lenient (only id and secret
 * required), the emulator is not. The fields come from that schema, so a field it gains is required too; the spec's are
 * typed strictly here.
 */
const CompleteEndpoint = z.strictObject({
  ...Object.fromEntries(Object.keys(WebhookEndpointObject.shape).map((key) => [key, z.unknown().refine((value) => value !== undefined)])),
  id: z.string().startsWith("we_"),
  created: z.iso.datetime(),
  updated: z.iso.datetime(),
  format: z.enum(["basic", "cloudEvents"]),
  secret: z.string().min(1),
  workspace: z.string().startsWith("wksp_"),
  live: z.boolean(),
  etag: z.string().min(1),
  events: z.array(z.string()),
  description: z.string().nullable(),
  status: z.string(),
  url: z.string(),
  metadata: z.record(z.string(), z.string()),
});

const emulator = emulatorForEachTest();

describe("POST /v1/webhooks/endpoints: success", () => {
  it("answers 200 with the endpoint object and records it", async () => {
    const form = endpointForm({
      url: "https://example.com/hooks/payments",
      "events[]": ["payment.succeeded", "identity.verification.created"],
      description: "payments",
    });
    const result = await call(emulator, "/v1/webhooks/endpoints", { form });
    expect(result.status).toBe(200);
    expect(String(result.headers["content-type"])).toContain("application/json");

    const endpoint = CompleteEndpoint.parse(result.json);
    expect(WebhookEndpointObject.parse(result.json)).toEqual(endpoint);
    expect(endpoint.id).toMatch(/^we_[0-9a-f]{24}$/);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(endpoint.workspace).toMatch(/^wksp_/);
    expect(endpoint).toMatchObject({
      url: "https://example.com/hooks/payments",
      format: "basic",
      events: ["payment.succeeded", "identity.verification.created"],
      description: "payments",
      status: "enabled",
      live: false,
      metadata: {},
    });
    expect(endpoint.etag.length).toBeGreaterThan(2);
    expect(new Date(endpoint.created).toISOString()).toBe(endpoint.created);
    expect(endpoint.updated).toBe(endpoint.created);
    expect(emulator.endpoints()).toEqual([endpoint]);

    expect(await withEmulatorClient(emulator, (client) => client.listEndpoints())).toEqual([endpoint]);
  });

  it("defaults format to basic and description to null; accepts cloudEvents", async () => {
    const form = endpointForm();
    form.delete("format");
    const basic = await call(emulator, "/v1/webhooks/endpoints", { form });
    expect(basic.json).toMatchObject({ format: "basic", description: null });
    expect(CompleteEndpoint.safeParse(basic.json).success).toBe(true);

    const cloud = await call(emulator, "/v1/webhooks/endpoints", { form: endpointForm({ format: "cloudEvents" }) });
    expect(cloud.status).toBe(200);
    expect(cloud.json.format).toBe("cloudEvents");
  });

  it("gives every endpoint its own id, secret and etag, in one workspace", async () => {
    const a = (await call(emulator, "/v1/webhooks/endpoints", { form: endpointForm() })).json;
    const b = (await call(emulator, "/v1/webhooks/endpoints", { form: endpointForm() })).json;
    expect(a.id).not.toBe(b.id);
    expect(a.secret).not.toBe(b.secret);
    expect(a.etag).not.toBe(b.etag);
    expect(a.workspace).toBe(b.workspace);
    expect(emulator.endpoints().map((e) => e.id)).toEqual([a.id, b.id]);
  });

  it("accepts a charset parameter on the content type", async () => {
    const result = await call(emulator, "/v1/webhooks/endpoints", {
      body: endpointForm().toString(),
      headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
    });
    expect(result.status).toBe(200);
  });
});

describe("POST /v1/webhooks/endpoints: rejections", () => {
  async function rejected(form: URLSearchParams | string) {
    const result = await call(emulator, "/v1/webhooks/endpoints", { form });
    expect(result.status).toBe(400);
    const problem = Problem.parse(result.json);
    expect(problem.title).toBe("validation_failed");
    expect(emulator.endpoints()).toEqual([]);
    return problem;
  }

  // Every limit comes from the field's `.meta()` (schemas/field-meta.ts): a field that gains one is held to it here.
  const LIMITED = formFieldsOf(WebhookEndpointCreate).filter((field) => field.maxBytes !== undefined);
  // A valid value of each field, padded to a size: a URL or an event type stays one with letters added.
  const sample: Record<string, string> = { url: "https://example.com/hooks/", events: "payment.succeeded" };
  const sized = (key: string, bytes: number): string => (sample[key] ?? "").padEnd(bytes, "x");
  const formWith = (field: (typeof LIMITED)[number], value: string) =>
    endpointForm({ [field.name]: field.repeated ? ["payment.succeeded", value] : value });

  it("takes every field at the bytes its schema allows, and names it one byte over", async () => {
    expect(LIMITED.map((field) => field.key)).toEqual(expect.arrayContaining(["url", "events", "description"]));
    for (const field of LIMITED) {
      const atLimit = await call(emulator, "/v1/webhooks/endpoints", { form: formWith(field, sized(field.key, field.maxBytes!)) });
      expect({ field: field.key, status: atLimit.status }).toEqual({ field: field.key, status: 200 });
      const over = await call(emulator, "/v1/webhooks/endpoints", { form: formWith(field, sized(field.key, field.maxBytes! + 1)) });
      expect({ field: field.key, status: over.status }).toEqual({ field: field.key, status: 400 });
      const errors = Problem.parse(over.json).errors ?? {};
      // Named as the service names it: its wire name.
      const name = wireNameOf(WebhookEndpointCreate, field.key);
      expect(Object.keys(errors)).toEqual([field.repeated ? `${name}[1]` : name]);
      expect(Object.values(errors)[0]).toEqual([`expected at most ${field.maxBytes} bytes of UTF-8, got ${field.maxBytes! + 1}`]);
    }
  });

  it("names a list of more values than its schema allows", async () => {
    const events = formFieldsOf(WebhookEndpointCreate).find((field) => field.key === "events")!;
    const types = (count: number) => Array.from({ length: count }, (_, i) => `type.${i}`);
    expect((await call(emulator, "/v1/webhooks/endpoints", { form: endpointForm({ "events[]": types(events.maxItems!) }) })).status).toBe(
      200,
    );
    const over = await call(emulator, "/v1/webhooks/endpoints", { form: endpointForm({ "events[]": types(events.maxItems! + 1) }) });
    expect(over.status).toBe(400);
    expect(Problem.parse(over.json).errors).toEqual({
      events: [`expected at most ${events.maxItems} values, got ${events.maxItems! + 1}`],
    });
  });

  it("names a bad url", async () => {
    const problem = await rejected(endpointForm({ url: "not a url" }));
    expect(Object.keys(problem.errors ?? {})).toEqual(["url"]);
    expect(problem.detail).toContain("url");
  });

  it("names a missing url and missing events", async () => {
    const problem = await rejected("format=basic");
    expect(Object.keys(problem.errors ?? {}).sort()).toEqual(["events", "url"]);
  });

  it("names an unknown format", async () => {
    const problem = await rejected(endpointForm({ format: "cloudevents" }));
    expect(Object.keys(problem.errors ?? {})).toEqual(["format"]);
  });

  it("names an empty event type by its index", async () => {
    const problem = await rejected(endpointForm({ "events[]": ["payment.succeeded", ""] }));
    expect(Object.keys(problem.errors ?? {})).toEqual(["events[1]"]);
  });

  it("names unknown fields, with a hint for 'events' without brackets", async () => {
    const form = endpointForm();
    form.append("enabled", "true");
    form.append("events", "payment.succeeded");
    const problem = await rejected(form);
    expect(Object.keys(problem.errors ?? {}).sort()).toEqual(["enabled", "events"]);
    expect(problem.errors?.events?.[0]).toContain("events[]");
    // The fields the create schema names, in its order, as the form names them (a list with [], a field under its wire name).
    const names = formFieldsOf(WebhookEndpointCreate).map((field) => field.name);
    expect(names.slice(0, 4)).toEqual(["url", "events[]", "format", "description"]);
    expect(problem.errors?.enabled).toEqual([`unknown field; expected ${names.slice(0, -1).join(", ")} or ${names.at(-1)}`]);
    expect(problem.detail).toContain("enabled");
    // The package's one rendering of field errors, on one line.
    expect(problem.detail).toBe(`The request has 2 invalid fields: ${describeFieldErrors(problem.errors ?? {}, { separator: "; " })}`);
  });

  it("rejects a single field sent twice", async () => {
    const form = endpointForm();
    form.append("url", "https://example.org/other");
    const problem = await rejected(form);
    expect(Object.keys(problem.errors ?? {})).toEqual(["url"]);
  });

  it("answers 415 for a JSON body", async () => {
    const result = await call(emulator, "/v1/webhooks/endpoints", {
      json: { url: "https://example.com/hooks", events: ["payment.succeeded"] },
    });
    expect(result.status).toBe(415);
    expect(Problem.parse(result.json).title).toBe("unsupported_media_type");
    expect(result.headers["accept-post"]).toBe("application/x-www-form-urlencoded");
  });

  it("answers 415 without a content type", async () => {
    const result = await call(emulator, "/v1/webhooks/endpoints", { body: endpointForm().toString() });
    expect(result.status).toBe(415);
  });
});
