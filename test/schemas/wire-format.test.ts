/** Shared wire formats (endpoint object, API version, idempotency keys, field-error text) and the package root's exports: no network. */
import { z } from "zod";
import * as schemas from "../../schemas";
import {
  ApiVersion,
  IdempotencyKey,
  IdempotencyKeyPrefix,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  MAX_IDEMPOTENCY_KEY_PREFIX_LENGTH,
  WebhookEndpointObject,
  describeFieldErrors,
} from "../../schemas";
import { chunkIdempotencyKey } from "../../client/idempotency";
import { endpointObject } from "../support/mock-service";

describe("package root exports", () => {
  // The root re-exports the client, receiver and error modules with `export *`, beside the
  // resources and a zod-free `startEmulator`; the zod schemas are only in `/schemas`.
  const root: Record<string, unknown> = require("../../index");
  const starModules: Record<string, Record<string, unknown>> = {
    client: require("../../client"),
    errors: require("../../errors"),
    receiver: require("../../receiver"),
  };

  it("has the resources, the client, the receiver helpers, the error checks and startEmulator", () => {
    for (const name of [
      "WebhookEndpoint",
      "MessageBatch",
      "MessagingClient",
      "verifySignature",
      "parseEvent",
      "isApiError",
      "startEmulator",
    ]) {
      expect(typeof root[name]).toBe("function");
    }
  });

  it.each(Object.keys(starModules))("every export of %s reaches the root unchanged", (name) => {
    const module = starModules[name];
    expect(Object.keys(module).filter((key) => root[key] !== module[key])).toEqual([]);
  });

  it("exposes no zod schema (pulumi-messaging/schemas does)", () => {
    expect(Object.keys(root).filter((key) => root[key] instanceof z.ZodType)).toEqual([]);
    expect(Object.keys(schemas).filter((key) => (schemas as Record<string, unknown>)[key] instanceof z.ZodType)).toEqual(
      expect.arrayContaining(["Message", "MessageBatchRequest", "WebhookEndpointObject", "Problem", "MessagingEvent"]),
    );
  });

  it("names the endpoint schema WebhookEndpointObject", () => {
    expect(schemas).not.toHaveProperty("WebhookEndpoint");
    expect(WebhookEndpointObject.safeParse(endpointObject()).success).toBe(true);
  });
});

describe("WebhookEndpointObject (lenient: only id and secret are required)", () => {
  it("parses the complete object of spec §2.2", () => {
    expect(WebhookEndpointObject.parse(endpointObject())).toEqual(endpointObject());
  });

  it("parses an object with only id and secret", () => {
    expect(WebhookEndpointObject.parse({ id: "we_1", secret: "whsec_x" })).toEqual({ id: "we_1", secret: "whsec_x" });
  });

  it.each(["created", "updated", "format", "workspace", "live", "etag", "events", "description", "status", "url", "metadata"])(
    "accepts %s missing or null",
    (field) => {
      const { [field]: _omitted, ...rest } = endpointObject();
      expect(WebhookEndpointObject.safeParse(rest).success).toBe(true);
      expect(WebhookEndpointObject.safeParse({ ...rest, [field]: null }).success).toBe(true);
    },
  );

  it.each([
    ["live", "yes"],
    ["events", "payment.succeeded"],
    ["metadata", { a: 1 }],
    ["created", 1717200000],
    ["etag", 1],
  ])("still checks the type of %s when present", (field, value) => {
    const result = WebhookEndpointObject.safeParse(endpointObject({ [field]: value }));
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual([expect.stringMatching(new RegExp(`^${field}`))]);
  });

  it.each([
    ["a missing secret", { secret: undefined }, "secret"],
    ["an empty secret", { secret: "" }, "secret"],
    ["a null secret", { secret: null }, "secret"],
    ["a missing id", { id: undefined }, "id"],
    ["an id without the we_ prefix", { id: "ep_1" }, "id"],
  ])("rejects %s", (_case, overrides, field) => {
    const result = WebhookEndpointObject.safeParse(endpointObject(overrides));
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual([field]);
  });

  it("keeps unknown extra fields", () => {
    expect(WebhookEndpointObject.parse(endpointObject({ enabled: true }))).toHaveProperty("enabled", true);
  });
});

describe("ApiVersion", () => {
  it.each(["2024-06-01", "2024-02-29", "2025-12-31", "1999-01-01"])("accepts the calendar date %s", (value) => {
    expect(ApiVersion.safeParse(value).success).toBe(true);
  });

  it.each([
    "2023-02-29",
    "2024-02-30",
    "2024-04-31",
    "2024-13-01",
    "2024-00-10",
    "2024-6-1",
    "20240601",
    "June 1 2024",
    " 2024-06-01",
    "",
    "2024-06-01T00:00:00Z",
  ])("rejects %p", (value) => {
    const result = ApiVersion.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toMatch(/YYYY-MM-DD/);
  });

  it.each([20240601, null, undefined, {}])("rejects the non-string %p", (value) => {
    expect(ApiVersion.safeParse(value).success).toBe(false);
  });
});

describe("IdempotencyKey and IdempotencyKeyPrefix", () => {
  it("accepts 1 to 255 visible ASCII characters as a key", () => {
    expect(IdempotencyKey.safeParse("a").success).toBe(true);
    expect(IdempotencyKey.safeParse("order-42_retry:1/x").success).toBe(true);
    expect(IdempotencyKey.safeParse("~".repeat(MAX_IDEMPOTENCY_KEY_LENGTH)).success).toBe(true);
    expect(MAX_IDEMPOTENCY_KEY_LENGTH).toBe(255);
  });

  it.each([
    ["empty", ""],
    ["with a space", "two words"],
    ["with a tab", "a\tb"],
    ["with a newline (header injection)", "a\r\nx-evil: 1"],
    ["non-ASCII", "clé"],
    ["256 characters", "k".repeat(256)],
  ])("rejects a key %s", (_case, value) => {
    expect(IdempotencyKey.safeParse(value).success).toBe(false);
  });

  it("bounds a prefix at 243 characters, so every chunk key fits in a key", () => {
    const longest = "p".repeat(MAX_IDEMPOTENCY_KEY_PREFIX_LENGTH);
    expect(MAX_IDEMPOTENCY_KEY_PREFIX_LENGTH).toBe(243);
    expect(IdempotencyKeyPrefix.safeParse(longest).success).toBe(true);
    expect(IdempotencyKeyPrefix.safeParse(`${longest}p`).success).toBe(false);
    expect(IdempotencyKey.safeParse(chunkIdempotencyKey(longest, Number.MAX_SAFE_INTEGER)).success).toBe(false);
    expect(IdempotencyKey.safeParse(chunkIdempotencyKey(longest, 99_999_999_999)).success).toBe(true);
  });

  it("applies the key's character rule to a prefix", () => {
    expect(IdempotencyKeyPrefix.safeParse("has space").error?.issues[0].message).toBe("expected visible ASCII characters without spaces");
    expect(IdempotencyKey.safeParse("has space").error?.issues[0].message).toBe("expected visible ASCII characters without spaces");
  });
});

describe("describeFieldErrors", () => {
  const errors = { "messages[1].tos[0]": ["expected an E.164 phone number"], stream: ["expected a string", "too short"] };

  it("renders one field a line, a field's messages joined with '; '", () => {
    expect(describeFieldErrors(errors)).toBe("messages[1].tos[0]: expected an E.164 phone number\nstream: expected a string; too short");
  });

  it("indents each line", () => {
    expect(describeFieldErrors(errors, { indent: "  " })).toBe(
      "  messages[1].tos[0]: expected an E.164 phone number\n  stream: expected a string; too short",
    );
  });

  it("joins fields on one line with another separator", () => {
    expect(describeFieldErrors(errors, { separator: "; " })).toBe(
      "messages[1].tos[0]: expected an E.164 phone number; stream: expected a string; too short",
    );
  });

  it("is empty for no errors", () => {
    expect(describeFieldErrors({})).toBe("");
  });
});
