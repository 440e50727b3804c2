/**
 * Hostile values in the shared schemas and field-error report (used by the client, the CLI,
 * the emulator and the receiver): no crash, no silent change. No network.
 */
import { MessagingClient } from "../../client";
import { checkMessage, InvalidMessages } from "../../client/validate";
import { isValidationError, type ValidationError } from "../../errors";
import { parseEvent } from "../../receiver";
import {
  JsonObject,
  MAX_JSON_DEPTH,
  MessageBatchRequest,
  addFieldError,
  describeFieldErrors,
  findJsonHazards,
  formatPath,
  toFieldErrors,
  type FieldErrors,
} from "../../schemas";

const parsedMessage = (extra: string) => JSON.parse(`{"tos":["+254712345678"],"body":"x",${extra}}`);

/** The ValidationError a promise rejects with (fails the test if it resolves or rejects otherwise). */
async function validationError(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isValidationError(error)).toBe(true);
  return error as ValidationError;
}

describe("field errors with prototype keys", () => {
  it.each(["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"])("keeps an own entry for %s", (key) => {
    const errors: FieldErrors = {};
    addFieldError(errors, key, "first");
    addFieldError(errors, key, "second");
    expect(Object.prototype.hasOwnProperty.call(errors, key)).toBe(true);
    expect(Object.getOwnPropertyDescriptor(errors, key)?.value).toEqual(["first", "second"]);
    expect(Object.getPrototypeOf(errors)).toBe(Object.prototype);
    expect(describeFieldErrors(errors)).toBe(`${key}: first; second`);
  });

  it("renders a __proto__ path segment quoted, never as a bare key", () => {
    expect(formatPath(["messages", 0, "__proto__"])).toBe('messages[0]["__proto__"]');
    expect(formatPath(["__proto__", "a"])).toBe('["__proto__"].a');
  });

  it("reports unknown __proto__, constructor and prototype keys (the report used to crash with 'push is not a function')", () => {
    const parsed = MessageBatchRequest.safeParse(
      JSON.parse(`{"stream":"s","messages":[{"tos":["+254712345678"],"body":"x"}],"__proto__":1,"constructor":2,"prototype":3}`),
    );
    expect(parsed.success).toBe(false);
    const errors = toFieldErrors(parsed.error!.issues);
    expect(Object.keys(errors).sort()).toEqual(['["__proto__"]', "constructor", "prototype"]);
  });
});

describe("the client refuses what JSON would change, naming the field, before any request", () => {
  // Port 1 on loopback: nothing listens; a request would fail with a ConnectionError instead.
  const client = new MessagingClient({ apiKey: "sk_test_x", baseUrl: "http://127.0.0.1:1", maxRetries: 0 });
  afterAll(() => client.close());

  const sparse: unknown[] = [];
  sparse[2] = 1;
  const cases: Array<[string, unknown, string]> = [
    ["Infinity in a model", { amount: Infinity }, "messages[0].template.model.amount"],
    ["NaN in a model", { amount: NaN }, "messages[0].template.model.amount"],
    ["a sparse array in a model", { list: sparse }, "messages[0].template.model.list[0]"],
    ["undefined in a model's array", { list: [1, undefined] }, "messages[0].template.model.list[1]"],
    ["a Date in a model", { when: new Date(0) }, "messages[0].template.model.when"],
    ["a bigint in a model", { n: 1n }, "messages[0].template.model.n"],
    ["a function in a model", { f: () => 1 }, "messages[0].template.model.f"],
    ["an own __proto__ key in a model", JSON.parse(`{"__proto__":{"x":1}}`), 'messages[0].template.model["__proto__"]'],
    ["-0 in a model (JSON would send 0)", { n: -0 }, "messages[0].template.model.n"],
    ["an integer beyond 2^53 in a model", { id: 2 ** 53 + 2 }, "messages[0].template.model.id"],
    ["a negative integer beyond -2^53 in a model", { id: -(2 ** 60) }, "messages[0].template.model.id"],
    [
      "a model nested deeper than the limit",
      JSON.parse(`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${"}".repeat(MAX_JSON_DEPTH + 1)}`),
      "messages[0].template.model.a",
    ],
  ];
  it.each(cases)("%s", async (_name, model, field) => {
    const error = await validationError(
      client.sendMessageBatch({ stream: "transactional", messages: [{ tos: ["+254712345678"], template: { id: "t", model } }] } as never),
    );
    expect(Object.keys(error.fieldErrors).some((key) => key === field || key.startsWith(`${field}.`))).toBe(true);
  });

  it.each([
    ["__proto__", 'messages[0]["__proto__"]'],
    ["constructor", "messages[0].constructor"],
    ["prototype", "messages[0].prototype"],
  ])("a message with an own %s key is a ValidationError naming it", async (key, field) => {
    const error = await validationError(
      client.sendMessageBatch({ stream: "transactional", messages: [parsedMessage(`"${key}":{"body":"y"}`)] }),
    );
    expect(error.fieldErrors[field]).toEqual(["unknown field"]);
  });

  it("a sparse messages array is refused at the hole", async () => {
    const messages = [{ tos: ["+254712345678"], body: "x" }];
    messages[2] = { tos: ["+254712345678"], body: "z" };
    const error = await validationError(client.sendMessageBatch({ stream: "transactional", messages }));
    expect(Object.keys(error.fieldErrors)).toEqual(["messages[1]"]);
  });

  it("the CLI's message-list check names a line for a message with __proto__ and constructor keys", () => {
    const invalid = new InvalidMessages("messages", "file");
    const verdict = checkMessage(parsedMessage(`"__proto__":{},"constructor":1`));
    if (!verdict.ok) invalid.addIssues("line 3", verdict.issues);
    const thrown = invalid.toError();
    expect(isValidationError(thrown)).toBe(true);
    expect(Object.keys((thrown as ValidationError).fieldErrors).sort()).toEqual(['line 3: ["__proto__"]', "line 3: constructor"]);
  });
});

describe("JsonObject and findJsonHazards", () => {
  it("accepts plain JSON, null-prototype objects, and undefined members (left out, as JSON.stringify does)", () => {
    const value = Object.assign(Object.create(null), { a: [1, "x", null, true, { b: -0.5 }], c: undefined });
    expect(JsonObject.safeParse(value).success).toBe(true);
  });

  it("is iterative: a value 200,000 levels deep is reported, not a stack overflow", () => {
    let value: unknown = 1;
    for (let i = 0; i < 200_000; i++) value = [value];
    const hazards = findJsonHazards(value);
    expect(hazards).toHaveLength(1);
    expect(hazards[0].message).toContain(`nested more than ${MAX_JSON_DEPTH} levels deep`);
  });

  it("stops after the limit of hazards", () => {
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, Infinity]));
    expect(findJsonHazards(many)).toHaveLength(20);
  });
});

describe("parseEvent reads event bodies under the same JSON rule, naming the field", () => {
  const event = (data: string) => `{"id":"evt_1","type":"payment.succeeded","created":"2024-06-01T00:00:00Z","data":{"object":${data}}}`;
  it.each<[string, string | Buffer, string, RegExp]>([
    ["a duplicate key (the last would win)", event(`{"amount":1,"amount":2}`), "data.object.amount", /appears more than once/],
    ["a duplicate type at the top", `{"type":"payment.succeeded","type":"x","id":"e","data":{"object":{}}}`, "type", /more than once/],
    ["an integer above 2^53", event(`{"id":9007199254740993}`), "data.object.id", /read as 9007199254740992/],
    ["1e-400", event(`{"x":1e-400}`), "data.object.x", /read as 0/],
    ["-0", event(`{"x":-0}`), "data.object.x", /other than -0/],
    ["1e400", event(`{"x":1e400}`), "data.object.x", /finite number/],
    ["a UTF-16 body", Buffer.from(event("{}"), "utf16le"), "(root)", /UTF-16 or UTF-32.*only UTF-8/],
    ["a UTF-16 body with its mark", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(event("{}"), "utf16le")]), "(root)", /UTF-16LE/],
  ])("%s", (_, body, field, message) => {
    let thrown: unknown;
    try {
      parseEvent(body);
    } catch (error) {
      thrown = error;
    }
    expect(isValidationError(thrown)).toBe(true);
    expect((thrown as ValidationError).fieldErrors[field]).toEqual([expect.stringMatching(message)]);
  });

  it("keeps what reads back exactly, as written", () => {
    const parsed = parseEvent(event(`{"amount":9007199254740991,"rate":0.1,"tiny":5e-324,"name":"caf\\u00e9"}`));
    expect(parsed.data.object).toEqual({ amount: 9007199254740991, rate: 0.1, tiny: 5e-324, name: "caf\u00e9" });
  });
});
