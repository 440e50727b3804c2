/**
 * Hostile values in the shared schemas and field-error report (used by the client, the CLI,
 * the emulator and the receiver): no crash, no silent change. No network.
 */
import { MessagingClient } from "../../client";
import { isValidationError, type ValidationError } from "../../errors";
import {
  InvalidMessages,
  JsonObject,
  MAX_JSON_DEPTH,
  MessageBatchRequest,
  addFieldError,
  checkMessage,
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

  it("reports unknown __proto__, constructor and prototype keys (a report built on a plain object would crash with 'push is not a function')", () => {
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

  it("a sparse messages array is refused at the hole", async () => {
    const messages = [{ tos: ["+254712345678"], body: "x" }];
    messages[2] = { tos: ["+254712345678"], body: "z" };
    const error = await validationError(client.sendMessageBatch({ stream: "transactional", messages }));
    expect(Object.keys(error.fieldErrors)).toEqual(["messages[1]"]);
  });

  it("the CLI's message-list check names a line for a message with __proto__ and constructor keys", () => {
    const invalid = new InvalidMessages("file");
    const verdict = checkMessage(parsedMessage(`"__proto__":{},"constructor":1`));
    if (!verdict.ok) invalid.addIssues("line 3", verdict.issues);
    expect(Object.keys(invalid.fieldErrors() ?? {}).sort()).toEqual(['line 3: ["__proto__"]', "line 3: constructor"]);
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
