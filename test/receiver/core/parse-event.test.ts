import { ValidationError, isValidationError } from "../../../errors/messaging-error";
import {
  constructEvent,
  isEventType,
  isKnownEvent,
  parseEvent,
  parseWebhookPayload,
  signPayload,
  type GenericEvent,
  type IdentityVerificationCreatedEvent,
  type ParsedEvent,
  type PaymentSucceededEvent,
} from "../../../receiver";

// Shaped like the spec's sample payload (§2.3): no `type`.
const SAMPLE = {
  id: "evt_1PqRsT",
  created: "2024-06-01T12:00:00Z",
  data: { object: { id: "idv_123", status: "pending" }, previous: null },
  request: { id: "req_abc", idempotency_key: "5f8c1e6a-key" },
};

function event(type?: string): Record<string, unknown> {
  return type === undefined ? { ...SAMPLE } : { ...SAMPLE, type };
}

function cloudEvent(data: unknown, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    specversion: "1.0",
    id: "ce_1",
    source: "https://api.example.com/v1",
    type: "payment.succeeded",
    time: "2024-06-01T12:00:01Z",
    datacontenttype: "application/json",
    data,
    ...overrides,
  };
}

/** Runs fn, expects a ValidationError, returns it. */
function invalid(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (error) {
    expect(isValidationError(error)).toBe(true);
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error("expected parsing to fail");
}

// Compile-time checks: this function only compiles if the narrowing works as documented.
function describeEvent(e: ParsedEvent): string {
  if (isKnownEvent(e)) {
    switch (e.type) {
      case "payment.succeeded": {
        const exact: PaymentSucceededEvent = e;
        return `payment ${String(exact.data.object.id)}`;
      }
      case "identity.verification.created": {
        const exact: IdentityVerificationCreatedEvent = e;
        return `verification ${String(exact.data.object.id)}`;
      }
      default: {
        const exhaustive: never = e;
        return exhaustive;
      }
    }
  }
  const generic: GenericEvent = e;
  const type: string | undefined = generic.type;
  return `generic ${type ?? "(no type)"}`;
}

describe("parseEvent, basic format", () => {
  it("parses the spec's sample payload, which has no type, as a generic event", () => {
    const parsed = parseEvent(JSON.stringify(SAMPLE));
    expect(parsed).toEqual(SAMPLE);
    expect(parsed.type).toBeUndefined();
    expect(isKnownEvent(parsed)).toBe(false);
    expect(describeEvent(parsed)).toBe("generic (no type)");
  });

  it.each([
    ["payment.succeeded", "payment idv_123"],
    ["identity.verification.created", "verification idv_123"],
  ])("types the named type %s", (type, described) => {
    const parsed = parseEvent(JSON.stringify(event(type)));
    expect(parsed.type).toBe(type);
    expect(isKnownEvent(parsed)).toBe(true);
    expect(describeEvent(parsed)).toBe(described);
  });

  it("narrows with a plain switch on event.type", () => {
    const parsed = parseEvent(event("payment.succeeded"));
    let seen: string;
    switch (parsed.type) {
      case "payment.succeeded": {
        const literal: "payment.succeeded" = parsed.type;
        seen = literal;
        break;
      }
      case "identity.verification.created":
        seen = "identity";
        break;
      case undefined:
        seen = "none";
        break;
      default:
        seen = `other ${parsed.type}`;
    }
    expect(seen).toBe("payment.succeeded");
  });

  it("narrows exactly with isEventType", () => {
    const parsed = parseEvent(event("identity.verification.created"));
    expect(isEventType(parsed, "payment.succeeded")).toBe(false);
    if (!isEventType(parsed, "identity.verification.created")) throw new Error("expected the named type");
    const exact: IdentityVerificationCreatedEvent = parsed;
    // @ts-expect-error: narrowed to identity.verification.created, so not a payment event
    const wrong: PaymentSucceededEvent = parsed;
    expect([exact.type, wrong.type]).toEqual(["identity.verification.created", "identity.verification.created"]);
    expect(isEventType(parseEvent(event("message.delivered")), "message.delivered")).toBe(true);
  });

  it("parses an unknown type as a generic event, keeping the type and unknown fields", () => {
    const body = { ...event("message.delivered"), livemode: false, data: { object: { to: "+254700000000" } } };
    const parsed = parseEvent(JSON.stringify(body));
    expect(parsed.type).toBe("message.delivered");
    expect(parsed.livemode).toBe(false);
    expect(parsed.data.object).toEqual({ to: "+254700000000" });
    expect(isKnownEvent(parsed)).toBe(false);
    expect(describeEvent(parsed)).toBe("generic message.delivered");
  });

  it("accepts a Buffer, a string with a byte-order mark, and an already parsed object alike", () => {
    const text = JSON.stringify(event("payment.succeeded"));
    const expected = parseEvent(text);
    expect(parseEvent(Buffer.from(text))).toEqual(expected);
    expect(parseEvent(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]))).toEqual(expected);
    expect(parseEvent(`\uFEFF${text}`)).toEqual(expected);
    expect(parseEvent(JSON.parse(text) as object)).toEqual(expected);
  });

  it("accepts data.previous as an object or absent, and request absent", () => {
    const { request: _omitted, ...noRequest } = SAMPLE;
    expect(parseEvent({ ...noRequest, data: { object: {} } }).request).toBeUndefined();
    expect(parseEvent({ ...SAMPLE, data: { object: {}, previous: { status: "x" } } }).data.previous).toEqual({ status: "x" });
  });
});

describe("parseEvent, CloudEvents format", () => {
  it("takes the event from data and the type from the envelope when the event has none", () => {
    const parsed = parseEvent(JSON.stringify(cloudEvent(SAMPLE)));
    expect(parsed).toEqual({ ...SAMPLE, type: "payment.succeeded" });
    expect(isEventType(parsed, "payment.succeeded")).toBe(true);
  });

  it("keeps the event's own type when both have one", () => {
    const parsed = parseEvent(cloudEvent(event("identity.verification.created")));
    expect(parsed.type).toBe("identity.verification.created");
  });

  it("parses an unknown envelope type as a generic event", () => {
    const parsed = parseEvent(cloudEvent(SAMPLE, { type: "com.example.message.delivered" }));
    expect(parsed.type).toBe("com.example.message.delivered");
    expect(isKnownEvent(parsed)).toBe(false);
  });

  it("reports the format and the envelope's attributes through parseWebhookPayload", () => {
    const payload = parseWebhookPayload(Buffer.from(JSON.stringify(cloudEvent(SAMPLE))));
    expect(payload.format).toBe("cloudEvents");
    if (payload.format !== "cloudEvents") throw new Error("unreachable");
    // Every attribute of the envelope as sent, `data` aside (it is the event).
    const { data: _data, ...attributes } = cloudEvent(SAMPLE);
    expect(Object.keys(attributes)).toEqual(["specversion", "id", "source", "type", "time", "datacontenttype"]);
    expect(payload.cloudEvent).toEqual(attributes);
    const source: string = payload.cloudEvent.source;
    expect(source).toBe("https://api.example.com/v1");
    expect(parseWebhookPayload(SAMPLE)).toEqual({ format: "basic", event: SAMPLE });
  });
});

describe("parseEvent, malformed input", () => {
  it.each([
    ["invalid JSON", "{not json", /not valid JSON/],
    ["an empty body", "", /not valid JSON/],
    ["a JSON array", "[1,2]", /expected a JSON object .* got an array/],
    ["JSON null", "null", /got null/],
    ["a JSON string", '"evt_1"', /got a string/],
  ])("rejects %s at the root", (_label, body, message) => {
    const error = invalid(() => parseEvent(body));
    expect(error.code).toBe("invalid_input");
    expect(Object.keys(error.fieldErrors)).toEqual(["(root)"]);
    expect(error.fieldErrors["(root)"]?.join()).toMatch(message);
    expect(error.message).toMatch(/^Invalid webhook payload:/);
  });

  it("rejects a Buffer that is not UTF-8", () => {
    const error = invalid(() => parseEvent(Buffer.from([0x7b, 0xff, 0xfe, 0x7d])));
    expect(error.fieldErrors["(root)"]).toEqual([expect.stringMatching(/^the body is not valid UTF-8/)]);
  });

  it("names each missing or mistyped field of a basic event", () => {
    const error = invalid(() => parseEvent(JSON.stringify({ id: 42, created: "2024-06-01T12:00:00Z", data: {}, type: 7 })));
    expect(Object.keys(error.fieldErrors).sort()).toEqual(["data.object", "id", "type"]);
    expect(error.message).toMatch(/^Invalid webhook event:/);
    expect(error.message).toMatch(/data\.object: /);
  });

  it("names fields of a CloudEvents envelope and of the event inside it", () => {
    const error = invalid(() => parseEvent(cloudEvent({ ...SAMPLE, id: undefined }, { specversion: "0.3", source: undefined })));
    expect(Object.keys(error.fieldErrors).sort()).toEqual(["data.id", "source", "specversion"]);
    expect(error.message).toMatch(/^Invalid CloudEvents envelope:/);
  });

  it("rejects an envelope whose data is missing", () => {
    const error = invalid(() => parseEvent(cloudEvent(undefined)));
    expect(Object.keys(error.fieldErrors)).toEqual(["data"]);
  });
});

describe("constructEvent", () => {
  const body = JSON.stringify(event("payment.succeeded"));

  it("verifies, then parses", () => {
    const header = signPayload(body, "whsec_x", 1000);
    const parsed = constructEvent(Buffer.from(body), header, ["whsec_y", "whsec_x"], { nowSeconds: 1000 });
    expect(isEventType(parsed, "payment.succeeded")).toBe(true);
  });

  it("does not parse what does not verify", () => {
    expect(() => constructEvent("{not json", signPayload(body, "whsec_x", 1000), "whsec_x", { nowSeconds: 1000 })).toThrow(
      expect.objectContaining({ code: "signature_verification_failed", reason: "no_matching_signature" }),
    );
  });

  it("reports a verified body that is not an event as a validation error", () => {
    const notEvent = '{"hello":"world"}';
    const error = invalid(() => constructEvent(notEvent, signPayload(notEvent, "whsec_x", 1000), "whsec_x", { nowSeconds: 1000 }));
    expect(Object.keys(error.fieldErrors).sort()).toEqual(["created", "data", "id"]);
  });
});
