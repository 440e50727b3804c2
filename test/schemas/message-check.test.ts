/**
 * The precompiled check agrees with the `Message` schema: whatever it passes, zod accepts
 * with the same output; the common valid messages pass it (so they are neither copied nor
 * run through zod); and validation of a list names every bad item, holes included.
 */
import { parseMessages } from "../../client/validate";
import { checkMessage } from "../../schemas";
import { isCertainlyValidMessage, isE164 } from "../../schemas/message-check";
import { E164_PATTERN } from "../../schemas/phone-number";
import { isValidationError, type ValidationError } from "../../errors";
import { Message } from "../../schemas";

const TO = "+254712345678";

const COMMON_VALID: unknown[] = [
  { tos: [TO], body: "Hello" },
  { tos: [TO, "+14155550100"], body: "x" },
  { tos: [TO], template: { id: "tpl_1", model: { name: "Ann", n: 1, ok: true, none: null } } },
  { tos: [TO], template: { id: "tpl_1", model: {} } },
  JSON.parse(`{"tos":["${TO}"],"template":{"id":"t","model":{"constructor":"c","prototype":2}}}`),
];

const OTHERS: unknown[] = [
  null,
  undefined,
  1,
  "x",
  [],
  [TO],
  {},
  { tos: [], body: "x" },
  { tos: ["0712345678"], body: "x" },
  { tos: [TO] },
  { tos: [TO], body: "" },
  { tos: [TO], body: "x", template: { id: "t", model: {} } },
  { tos: [TO], body: "x", extra: 1 },
  { tos: [TO], body: undefined, template: { id: "t", model: {} } },
  { tos: [TO], body: "x", template: undefined },
  { tos: [TO], template: { id: "", model: {} } },
  { tos: [TO], template: { id: "t" } },
  { tos: [TO], template: { id: "t", model: [] } },
  { tos: [TO], template: { id: "t", model: {}, x: 1 } },
  { tos: TO, body: "x" },
  { tos: [1], body: "x" },
  Object.assign(Object.create({ inherited: true }), { tos: [TO], body: "x" }),
  JSON.parse(`{"tos":["${TO}"],"body":"x","__proto__":{"p":1}}`),
  JSON.parse(`{"tos":["${TO}"],"template":{"id":"t","model":{"__proto__":{"p":1}}}}`),
  { tos: [TO], template: { id: "t", model: { amount: Infinity } } },
  { tos: [TO], template: { id: "t", model: { amount: -0 } } },
  { tos: [TO], template: { id: "t", model: { id: 2 ** 53 } } },
  { tos: [TO], template: { id: "t", model: { id: -1e20 } } },
  { tos: [TO], template: { id: "t", model: { when: new Date(0) } } },
  new (class Message {
    tos = [TO];
    body = "x";
  })(),
];

// Valid for the schema, but not the common case: left to zod, which accepts them.
const LEFT_TO_ZOD: unknown[] = [
  { tos: [TO], template: { id: "t", model: { nested: { a: [1, 2] } } } },
  { tos: [TO], template: { id: "t", model: { list: ["a"] } } },
];

describe("isCertainlyValidMessage", () => {
  it.each(COMMON_VALID.map((value) => [JSON.stringify(value), value]))("passes the common valid message %s as it is", (_, value) => {
    expect(isCertainlyValidMessage(value)).toBe(true);
    const parsed = Message.safeParse(value);
    expect(parsed.success && parsed.data).toEqual(value);
    expect(checkMessage(value)).toEqual({ ok: true, message: value });
    expect((checkMessage(value) as { message: unknown }).message).toBe(value);
  });

  it.each(OTHERS.map((value, i) => [i, value]))("never passes what zod would reject or change (case %i)", (_, value) => {
    if (isCertainlyValidMessage(value)) {
      const parsed = Message.safeParse(value);
      expect(parsed.success).toBe(true);
      expect(parsed.success && parsed.data).toEqual(value);
    }
    // Every case above is one the schema rejects or normalises: the check leaves it to zod.
    expect(isCertainlyValidMessage(value)).toBe(false);
    const verdict = checkMessage(value);
    const parsed = Message.safeParse(value);
    expect(verdict.ok).toBe(parsed.success);
  });
  it("takes no inherited key for the message's own: with Object.prototype given an enumerable key, it leaves every message to zod", () => {
    const inherited = Object.create({ body: "inherited" }) as Record<string, unknown>;
    inherited.tos = [TO];
    expect(isCertainlyValidMessage(inherited)).toBe(false);
    Object.defineProperty(Object.prototype, "polluted", { value: 1, enumerable: true, configurable: true });
    try {
      for (const value of COMMON_VALID) expect(isCertainlyValidMessage(value)).toBe(false);
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
    for (const value of COMMON_VALID) expect(isCertainlyValidMessage(value)).toBe(true);
  });
});

describe("isE164", () => {
  it("agrees with E164_PATTERN (the schema's rule) on every number of 0-17 characters built from its edge characters", () => {
    // Each position takes a character from either side of each boundary the rule draws.
    const alphabet = ["+", "0", "1", "9", "/", ":", " ", "a", "٣"];
    let checked = 0;
    const lengths = [0, 1, 2, 7, 8, 9, 15, 16, 17];
    for (const length of lengths) {
      for (let seed = 0; seed < 400; seed++) {
        let text = "";
        for (let i = 0; i < length; i++) text += alphabet[(seed * 31 + i * 7 + ((seed >> i) & 3)) % alphabet.length];
        for (const candidate of [text, `+${text.slice(1)}`, `+1${text.slice(2)}`, `+1${"5".repeat(Math.max(0, length - 2))}`]) {
          expect([candidate, isE164(candidate)]).toEqual([candidate, E164_PATTERN.test(candidate)]);
          checked++;
        }
      }
    }
    expect(checked).toBe(lengths.length * 400 * 4);
    for (const edge of ["+1234567", "+12345678", "+123456789012345", "+1234567890123456", "+0234567", "+12345 67", "+123456\n"])
      expect([edge, isE164(edge)]).toEqual([edge, E164_PATTERN.test(edge)]);
  });
});

describe("checkMessage beyond the common case", () => {
  it.each(LEFT_TO_ZOD.map((value) => [JSON.stringify(value), value]))(
    "%s: not passed by the precompiled check; zod decides",
    (_, value) => {
      expect(isCertainlyValidMessage(value)).toBe(false);
      expect(checkMessage(value).ok).toBe(Message.safeParse(value).success);
    },
  );
});

describe("parseMessages", () => {
  it("returns the caller's array itself when every message is valid (no copy)", () => {
    const messages = [
      { tos: [TO], body: "a" },
      { tos: [TO], body: "b" },
    ];
    expect(parseMessages(messages, 0)).toBe(messages);
  });

  it("names a hole of a sparse array as a missing message, and every other bad item", () => {
    // eslint-disable-next-line no-sparse-arrays
    const messages = [{ tos: [TO], body: "a" }, , { tos: ["0712"], body: "c" }] as unknown[];
    let error: ValidationError | undefined;
    try {
      parseMessages(messages, 10);
    } catch (caught) {
      if (isValidationError(caught)) error = caught;
    }
    expect(error?.fieldErrors).toEqual({
      "messages[11]": ["missing: a hole in a sparse array"],
      "messages[12].tos[0]": [expect.stringContaining("E.164")],
    });
  });

  it("reports prototype keys as unknown fields without crashing or polluting", () => {
    const messages = [JSON.parse(`{"tos":["${TO}"],"body":"x","__proto__":{"polluted":1},"constructor":1}`)];
    expect(() => parseMessages(messages, 0)).toThrow(/messages\[0\]\["__proto__"\]: unknown field/);
    expect(() => parseMessages(messages, 0)).toThrow(/messages\[0\]\.constructor: unknown field/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
