/**
 * `verbatimMessagesText` copies the messages out of a batch body instead of serializing them
 * again: whatever it returns must be exactly `JSON.stringify` of the messages as parsed.
 * Checked on bodies written in many ways (compact or indented, escapes JSON.stringify writes
 * and ones it does not, numbers spelled otherwise, integer-like keys, non-ASCII text), and on
 * the stored text through a real emulator.
 */
import { certainBatchRequest } from "../../../emulator/routes/batch-request";
import { mulberry32 } from "../../../emulator/faults/fault-choice";
import { verbatimMessagesText } from "../../../emulator/storage/messages-text";
import { StoredText } from "../../../emulator/storage/stored-text";
import { parseStrictJson } from "../../../schemas";
import { call, emulatorForAllTests } from "../../support/emulator";

const TO = "+254712345678";

/** The verbatim text of a body the emulator takes as parsed, or "left" when it stringifies. */
function verbatim(body: string): string {
  const parsed = parseStrictJson(body);
  if (!parsed.ok) throw new Error(`not strict JSON: ${body}`);
  const request = certainBatchRequest(parsed.value);
  if (request === undefined) throw new Error(`not a certain batch: ${body}`);
  const found = verbatimMessagesText(body, Buffer.from(body, "utf8"));
  if (found === undefined) return "left";
  expect(found.toString()).toBe(JSON.stringify(request.messages));
  expect(found.length).toBe(found.toString().length);
  return found.toString();
}

const random = mulberry32(2_026);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];

// Values JSON.stringify writes in one way only; the text variants below write them otherwise.
const BODIES = ["Hello", 'say "hi"', "back\\slash", "line\nbreak\ttab\r", "\b\f", "a/b", "10:00, ok", "x".repeat(300)];
const MODELS: Record<string, unknown>[] = [
  {},
  { name: "Ann" },
  { n: 1, ok: true, none: null },
  { amount: 1.5, neg: -42, small: 1e-7 },
  { "1": "a", b: 2 },
  { b: 2, "10": "x" },
];

function message(i: number): unknown {
  return random() < 0.6
    ? { tos: [TO, `+2547${String(10_000_000 + i)}`].slice(0, 1 + Math.floor(random() * 2)), body: pick(BODIES) }
    : { tos: [TO], template: { id: "tpl_1", model: pick(MODELS) } };
}

// Spellings JSON.stringify does not use, each keeping the value.
const REWRITES: ((text: string) => string)[] = [
  (text) => text.replace('"tos"', '"\\u0074os"'),
  (text) => text.replace("a/b", "a\\/b"),
  (text) => text.replace("Hello", "H\\u0065llo"),
  (text) => text.replace('"n":1', '"n":1.0'),
  (text) => text.replace('"amount":1.5', '"amount":15e-1'),
  (text) => text.replace(/,/, ", "),
  (text) => text.replace("[{", "[ {"),
  (text) => text.replace(/\}\]\}$/, "}\n]}"),
];

describe("verbatimMessagesText", () => {
  it("gives exactly JSON.stringify of the messages, or leaves them to it, on 2,000 generated bodies", () => {
    const ways = { verbatim: 0, left: 0 };
    for (let i = 0; i < 2000; i++) {
      const messages = Array.from({ length: 1 + Math.floor(random() * 4) }, (_, j) => message(j));
      const indent = random() < 0.1 ? 2 : undefined;
      let body = JSON.stringify(random() < 0.5 ? { stream: "transactional", messages } : { messages, stream: "s" }, null, indent);
      if (random() < 0.4) body = pick(REWRITES)(body);
      if (random() < 0.1) body = body.replace("Hello", "Héllo");
      if (verbatim(body) === "left") ways.left++;
      else ways.verbatim++;
    }
    expect(ways.verbatim).toBeGreaterThan(500);
    expect(ways.left).toBeGreaterThan(500);
  });

  it("takes the common compact ASCII body verbatim, escapes JSON.stringify writes included", () => {
    const messages = [
      { tos: [TO], body: 'a "quoted" \\ line\nbreak' },
      { tos: [TO], template: { id: "t", model: { n: 12, x: -3.5, s: "e" } } },
    ];
    expect(verbatim(JSON.stringify({ stream: "transactional", messages }))).toBe(JSON.stringify(messages));
    expect(verbatim(`{"stream":"messages","messages":${JSON.stringify(messages)}}`)).toBe(JSON.stringify(messages));
  });

  it.each([
    ["whitespace", `{"stream":"s","messages":[{"tos":["${TO}"], "body":"x"}]}`],
    ["a \\u escape", `{"stream":"s","messages":[{"tos":["${TO}"],"body":"\\u0078"}]}`],
    ["an escaped slash", `{"stream":"s","messages":[{"tos":["${TO}"],"body":"a\\/b"}]}`],
    ["a number spelled otherwise", `{"stream":"s","messages":[{"tos":["${TO}"],"template":{"id":"t","model":{"n":1E2}}}]}`],
    ["an integer-like key", `{"stream":"s","messages":[{"tos":["${TO}"],"template":{"id":"t","model":{"b":1,"2":2}}}]}`],
    ["non-ASCII text", `{"stream":"s","messages":[{"tos":["${TO}"],"body":"café"}]}`],
  ])("leaves a body with %s to JSON.stringify", (_, body) => {
    expect(verbatim(body)).toBe("left");
  });
});

describe("StoredText", () => {
  it.each([["ascii"], ["café"], ["漢字 😀"], [""], ["\ud800 lone"]])("keeps %j exactly, counting UTF-16 code units", (text) => {
    const stored = StoredText.of(text);
    expect(stored.toString()).toBe(text);
    expect(stored.length).toBe(text.length);
  });
});

describe("what a real emulator stores for bodies written in different ways", () => {
  const emulator = emulatorForAllTests({ deliveryRetrySchedule: [] });

  it("is the messages' JSON.stringify, whichever way the body was written", async () => {
    const messages = [
      { tos: [TO], body: 'a "b" \\ c\nd' },
      { tos: [TO], template: { id: "t", model: { "1": "one", n: 100, name: "Zoë" } } },
    ];
    const compact = JSON.stringify({ stream: "transactional", messages });
    const bodies = [compact, JSON.stringify({ stream: "transactional", messages }, null, 2), compact.replace('"n":100', '"n":1e2')];
    for (const body of bodies) {
      const answer = await call(emulator, "/v1/message_batches", { body, headers: { "content-type": "application/json" } });
      expect(answer.status).toBe(200);
    }
    const listing = await call(emulator, "/_emulator/batches");
    const stored = JSON.stringify(JSON.parse(compact).messages);
    expect(listing.text.split(`"messages":${stored}}`).length - 1).toBe(3);
    expect(emulator.batches().map((batch) => batch.messages)).toEqual([messages, messages, messages]);
  });
});
