/** Every rule of the wire schemas, one case each: the client, the provider and the emulator rely on them. */
import {
  CloudEventEnvelope,
  formatPath,
  MAX_MESSAGES_PER_BATCH,
  Message,
  MessageBatchRequest,
  MessageBatchResult,
  MessagingEvent,
  PhoneNumber,
  Problem,
  toFieldErrors,
  WebhookEndpointCreate,
} from "../../schemas";

const issuesOf = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  result.success ? {} : toFieldErrors(result.error!.issues as never);

describe("PhoneNumber (E.164)", () => {
  test.each(["+254712345678", "+1234567", "+123456789012345"])("accepts %s", (number) => {
    expect(PhoneNumber.safeParse(number).success).toBe(true);
  });
  test.each([
    ["no plus", "254712345678"],
    ["local form", "0712345678"],
    ["leading zero after +", "+0712345678"],
    ["6 digits", "+123456"],
    ["16 digits", "+1234567890123456"],
    ["spaces", "+254 712 345 678"],
    ["empty", ""],
  ])("rejects %s", (_why, number) => {
    expect(PhoneNumber.safeParse(number).success).toBe(false);
  });
});

describe("Message", () => {
  const tos = ["+254712345678"];
  test("body alone, or template with id and model, are valid", () => {
    expect(Message.safeParse({ tos, body: "Hi" }).success).toBe(true);
    expect(Message.safeParse({ tos, template: { id: "tmpl_1", model: { name: "Ann", count: 2 } } }).success).toBe(true);
  });
  test("body and template together are rejected, on template", () => {
    expect(issuesOf(Message.safeParse({ tos, body: "Hi", template: { id: "t", model: {} } }))).toEqual({
      template: ["a message carries either body or template, not both"],
    });
  });
  test("neither body nor template is rejected", () => {
    expect(issuesOf(Message.safeParse({ tos }))).toEqual({ "(root)": ["a message needs either body or template"] });
  });
  test("tos needs at least one number, each E.164", () => {
    expect(Object.keys(issuesOf(Message.safeParse({ tos: [], body: "x" })))).toEqual(["tos"]);
    expect(Object.keys(issuesOf(Message.safeParse({ tos: ["+254712345678", "07"], body: "x" })))).toEqual(["tos[1]"]);
  });
  test("template needs a non-empty id and a model object", () => {
    expect(Object.keys(issuesOf(Message.safeParse({ tos, template: { id: "", model: {} } })))).toEqual(["template.id"]);
    expect(Object.keys(issuesOf(Message.safeParse({ tos, template: { id: "t" } })))).toEqual(["template.model"]);
  });
  test("a template model nests at most 28 levels: the batch request carrying it at level 5 stays within 32", () => {
    const nested = (levels: number) => {
      let model: Record<string, unknown> = { leaf: true };
      for (let i = 1; i < levels; i++) model = { a: model };
      return model;
    };
    expect(Message.safeParse({ tos, template: { id: "t", model: nested(28) } }).success).toBe(true);
    expect(issuesOf(Message.safeParse({ tos, template: { id: "t", model: nested(29) } }))).toEqual({
      [`template.model${".a".repeat(27)}.a`]: ["nested more than 28 levels deep (the request that carries it may nest 32)"],
    });
  });
  test("an empty body and unknown keys are rejected", () => {
    expect(Object.keys(issuesOf(Message.safeParse({ tos, body: "" })))).toContain("body");
    expect(Message.safeParse({ tos, body: "x", bdy: "typo" }).success).toBe(false);
    // Each unknown key is named, so the user can find the typo.
    expect(issuesOf(Message.safeParse({ tos, body: "x", bdy: "typo" }))).toEqual({ bdy: ["unknown field"] });
  });
});

describe("MessageBatchRequest", () => {
  const message = { tos: ["+254712345678"], body: "x" };
  test("1 and 1,000 messages are valid; 0 and 1,001 are not, on messages", () => {
    expect(MessageBatchRequest.safeParse({ stream: "transactional", messages: [message] }).success).toBe(true);
    const full = Array.from({ length: MAX_MESSAGES_PER_BATCH }, () => message);
    expect(MessageBatchRequest.safeParse({ stream: "transactional", messages: full }).success).toBe(true);
    expect(Object.keys(issuesOf(MessageBatchRequest.safeParse({ stream: "transactional", messages: [] })))).toEqual(["messages"]);
    expect(Object.keys(issuesOf(MessageBatchRequest.safeParse({ stream: "transactional", messages: [...full, message] })))).toEqual([
      "messages",
    ]);
  });
  test("stream is any non-empty string", () => {
    expect(MessageBatchRequest.safeParse({ stream: "marketing", messages: [message] }).success).toBe(true);
    expect(Object.keys(issuesOf(MessageBatchRequest.safeParse({ stream: "", messages: [message] })))).toEqual(["stream"]);
  });
  test("errors name the message and field", () => {
    const result = MessageBatchRequest.safeParse({ stream: "t", messages: [message, { tos: ["0712"], body: "x" }] });
    expect(Object.keys(issuesOf(result))).toEqual(["messages[1].tos[0]"]);
  });
  test("the batch result is loose: id and messages typed when present, anything else kept", () => {
    expect(MessageBatchResult.parse({})).toEqual({});
    expect(MessageBatchResult.parse({ id: "msba_1", extra: true })).toEqual({ id: "msba_1", extra: true });
    expect(MessageBatchResult.safeParse({ id: 5 }).success).toBe(false);
  });
});

describe("WebhookEndpointCreate", () => {
  const valid = { url: "https://hooks.example.com/x", events: ["payment.succeeded"] };
  test("format defaults to basic; cloudEvents is accepted; description is optional", () => {
    expect(WebhookEndpointCreate.parse(valid)).toEqual({ ...valid, format: "basic" });
    expect(WebhookEndpointCreate.parse({ ...valid, format: "cloudEvents", description: "d" }).format).toBe("cloudEvents");
  });
  test.each([
    ["url", { ...valid, url: "hooks.example.com" }],
    ["url", { ...valid, url: "ftp://hooks.example.com" }],
    ["events", { ...valid, events: [] }],
    ["events[0]", { ...valid, events: [""] }],
    ["format", { ...valid, format: "CloudEvents" }],
  ])("rejects a bad %s", (field, input) => {
    expect(Object.keys(issuesOf(WebhookEndpointCreate.safeParse(input)))).toEqual([field]);
  });
  test("unknown fields are rejected (metadata is not a create field)", () => {
    expect(WebhookEndpointCreate.safeParse({ ...valid, metadata: {} }).success).toBe(false);
  });
});

describe("events", () => {
  const event = { id: "evt_1", created: "2026-11-22T00:00:00Z", data: { object: { amount: 1 }, previous: null } };
  test("type is optional (the spec's sample has none); request is optional", () => {
    expect(MessagingEvent.safeParse(event).success).toBe(true);
    expect(MessagingEvent.safeParse({ ...event, type: "payment.succeeded", request: { id: "req_1", idempotency_key: "k" } }).success).toBe(
      true,
    );
  });
  test("id, created and data.object are required", () => {
    expect(Object.keys(issuesOf(MessagingEvent.safeParse({ ...event, data: {} })))).toEqual(["data.object"]);
    expect(MessagingEvent.safeParse({ created: event.created, data: event.data }).success).toBe(false);
  });
  test("a CloudEvents envelope is specversion 1.0 with the event in data", () => {
    const envelope = { specversion: "1.0", id: "evt_1", source: "/emulator", type: "payment.succeeded", data: event };
    expect(CloudEventEnvelope.safeParse(envelope).success).toBe(true);
    expect(Object.keys(issuesOf(CloudEventEnvelope.safeParse({ ...envelope, specversion: "0.3" })))).toEqual(["specversion"]);
  });
});

describe("problem details and paths", () => {
  test("a problem body keeps title, detail and field errors", () => {
    const body = { type: "urn:x", title: "validation_failed", status: 400, detail: "d", errors: { "messages[0].tos[0]": ["bad"] } };
    expect(Problem.parse(body)).toEqual(body);
    expect(Problem.safeParse({ errors: { a: "not a list" } }).success).toBe(false);
  });
  test("paths render as written in code", () => {
    expect(formatPath(["messages", 1, "tos", 0])).toBe("messages[1].tos[0]");
    expect(formatPath(["template", "id"])).toBe("template.id");
    expect(formatPath([])).toBe("(root)");
  });
});
