/**
 * `certainBatchRequest` against the `MessageBatchRequest` schema it stands in for on the
 * emulator's hot path: whatever it passes, the schema accepts with the same stream and the
 * same messages, down to the text the emulator stores (`JSON.stringify`, so key order
 * counts). Checked on generated bodies (valid, near-valid, reordered, hostile values) and on
 * every batch-shaped row of the hostile-input table; and through a real emulator, which
 * stores the same text whichever path a batch took.
 */
import { certainBatchRequest } from "../../../emulator/routes/batch-request";
import { mulberry32 } from "../../../emulator/faults/fault-choice";
import { MessageBatchRequest, parseStrictJson } from "../../../schemas";
import { HOSTILE_CASES } from "../../support/hostile-cases";
import { call, withEmulatorClient, emulatorForAllTests } from "../../support/emulator";

const TO = "+254712345678";

/** Checks one input; returns which way it went, for the coverage counts. */
function agree(value: unknown): "fast" | "zod accepts" | "zod refuses" {
  const fast = certainBatchRequest(value);
  const parsed = MessageBatchRequest.safeParse(value);
  if (fast !== undefined) {
    expect(parsed.success).toBe(true);
    if (!parsed.success) return "zod refuses";
    expect(fast.stream).toBe(parsed.data.stream);
    expect(JSON.stringify(fast.messages)).toBe(JSON.stringify(parsed.data.messages));
    // Passed as given: no copy.
    expect(fast.messages).toBe((value as { messages: unknown }).messages);
    return "fast";
  }
  return parsed.success ? "zod accepts" : "zod refuses";
}

// ---- generated bodies ----

const random = mulberry32(20_261_124);
const chance = (p: number) => random() < p;
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
// How likely each flaw is in the batch being generated: 0 for half of them (valid bodies,
// their keys shuffled now and then), so all three ways are taken often.
let flaws = 1;
const flaw = (p: number) => chance(p * flaws);

const VALID_PHONES = [TO, "+14155550100", "+1234567", "+123456789012345"];
const BAD_PHONES: unknown[] = [
  "+1234567890123456",
  "+123456",
  "+0712345678",
  "0712345678",
  "+25471234567a",
  "",
  ` ${TO}`,
  `${TO}\n`,
  254712345678,
  null,
];
const BAD_TEXTS: unknown[] = ["", 1, null, true, [], {}, ["x"]];
const ODD_TEXTS = ["é", "\u0000", " ", "\ud800", '"quoted"\\', "x".repeat(2000)];
const FLAT_MODELS: unknown[] = [
  {},
  { name: "Ann" },
  { n: 1, ok: true, none: null },
  { n: 1.5, s: "" },
  { constructor: "c", prototype: 2 },
  { "1": "a", b: 2 },
];
const OTHER_MODELS: unknown[] = [
  { n: -0 },
  { n: 2 ** 53 },
  { n: -1e20 },
  { n: Infinity },
  { n: NaN },
  { nested: { a: [1, 2] } },
  { list: ["a"] },
  { u: undefined },
  { d: new Date(0) },
  { f: () => 1 },
  JSON.parse('{"__proto__":{"x":1}}'),
  Object.assign(Object.create(null), { x: 1 }),
  Object.assign(Object.create({ inherited: 1 }), { x: 1 }),
  [],
  null,
  "model",
];

/** Entries in the schema's order, shuffled now and then; built with `Object.fromEntries` (own keys, `__proto__` included). */
function objectOf(entries: [string, unknown][], base?: object): unknown {
  if (chance(0.3)) entries.sort(() => random() - 0.5);
  const made = Object.fromEntries(entries);
  return base === undefined ? made : Object.assign(base, made);
}

function extraEntry(): [string, unknown] {
  return [pick(["extra", "constructor", "__proto__", "toString", "Body", "tos "]), pick([1, "x", {}, null])];
}

function generatedTemplate(): unknown {
  if (flaw(0.05)) return pick([null, "tpl", [], 1]);
  const entries: [string, unknown][] = [];
  if (!flaw(0.03)) entries.push(["id", flaw(0.1) ? pick(BAD_TEXTS) : "tpl_1"]);
  if (!flaw(0.03)) entries.push(["model", flaw(0.2) ? pick(OTHER_MODELS) : { ...(pick(FLAT_MODELS) as object) }]);
  if (flaw(0.03)) entries.push(extraEntry());
  return objectOf(entries);
}

function generatedMessage(i: number): unknown {
  if (flaw(0.02)) return pick([null, undefined, 1, "x", [], [TO]]);
  const entries: [string, unknown][] = [];
  if (!flaw(0.03)) {
    const tos = !flaw(0.1)
      ? Array.from({ length: between(1, 3) }, () => (flaw(0.05) ? pick(BAD_PHONES) : pick(VALID_PHONES)))
      : pick<unknown>([[], TO, null, {}]);
    entries.push(["tos", tos]);
  }
  const kind = flaw(0.1) ? pick(["both", "neither"]) : pick(["body", "template"]);
  if (kind === "body" || kind === "both")
    entries.push(["body", flaw(0.05) ? pick([...BAD_TEXTS, undefined]) : chance(0.9) ? `Your code is ${i}` : pick(ODD_TEXTS)]);
  if (kind === "template" || kind === "both") entries.push(["template", flaw(0.03) ? undefined : generatedTemplate()]);
  if (flaw(0.03)) entries.push(extraEntry());
  if (flaw(0.01)) return objectOf(entries, Object.create(null));
  if (flaw(0.01)) return objectOf(entries, new (class Message {})());
  return objectOf(entries);
}

function generatedBatch(): unknown {
  flaws = chance(0.5) ? 0 : 1;
  if (flaw(0.01)) return pick([null, [], "batch", 1]);
  const count = flaw(0.1) ? pick([0, 1001]) : chance(0.05) ? 1000 : pick([1, between(2, 5)]);
  let messages: unknown = Array.from({ length: count }, (_, i) => generatedMessage(i));
  if (count > 1 && flaw(0.02)) delete (messages as unknown[])[between(0, count - 1)];
  if (flaw(0.01)) messages = pick([null, {}, "messages"]);
  const entries: [string, unknown][] = [];
  if (!flaw(0.02)) entries.push(["stream", flaw(0.1) ? pick(["", 1, null, undefined]) : pick(["transactional", "marketing"])]);
  if (!flaw(0.01)) entries.push(["messages", messages]);
  if (flaw(0.03)) entries.push(extraEntry());
  const batch = objectOf(entries);
  // As a body arrives: the same value through JSON text now and then.
  return chance(0.2) ? JSON.parse(JSON.stringify(batch) ?? "null") : batch;
}

describe("certainBatchRequest agrees with MessageBatchRequest", () => {
  it("on 3,000 generated bodies, taking the common valid ones and leaving the rest to the schema", () => {
    const ways = { fast: 0, "zod accepts": 0, "zod refuses": 0 };
    for (let i = 0; i < 3000; i++) ways[agree(generatedBatch())]++;
    // All three ways are taken often enough for the agreement above to mean something.
    expect(ways.fast).toBeGreaterThan(500);
    expect(ways["zod accepts"]).toBeGreaterThan(500);
    expect(ways["zod refuses"]).toBeGreaterThan(500);
  });

  it("on every batch-shaped input of the hostile-input table", () => {
    const values: unknown[] = [];
    const wrap = (message: unknown) => ({ stream: "transactional", messages: [message] });
    for (const row of HOSTILE_CASES) {
      if (row.via === "emulator" && row.path === "/v1/message_batches") {
        const { body, json } = row.options;
        const text = json !== undefined ? JSON.stringify(json) : Buffer.isBuffer(body) ? body.toString("utf8") : body;
        try {
          values.push(JSON.parse(text ?? ""));
        } catch {
          // Not JSON: refused before any schema sees it.
        }
      } else if (row.via === "messaging send") {
        for (const line of row.content.toString().split("\n")) {
          try {
            values.push(wrap(JSON.parse(line)));
          } catch {
            // Not a JSON line.
          }
        }
      } else if (row.via === "client") {
        values.push(wrap(row.message));
      } else if (row.via === "parseStrictJson") {
        try {
          values.push(wrap(JSON.parse(row.text)), JSON.parse(row.text));
        } catch {
          // Not JSON.
        }
      }
    }
    expect(values.length).toBeGreaterThan(50);
    for (const value of values) agree(value);
  });

  it("takes the common batch as it comes off the wire: 1,000 messages with a body or a template", () => {
    const messages = Array.from({ length: 1000 }, (_, i) =>
      i % 2 === 0
        ? { tos: [`+2547${String(10_000_000 + i).padStart(8, "0")}`], body: `Your appointment is tomorrow (reference ${i})` }
        : { tos: [TO, "+14155550100"], template: { id: "tpl_1", model: { name: "Ann", n: i, ok: true, none: null } } },
    );
    const parsed = parseStrictJson(JSON.stringify({ stream: "transactional", messages }));
    expect(parsed.ok).toBe(true);
    expect(agree(parsed.ok && parsed.value)).toBe("fast");
  });
});

describe("what the emulator stores does not depend on the path a batch took", () => {
  const emulator = emulatorForAllTests({ deliveryRetrySchedule: [] });

  it("stores the messages' text in the schema's key order, whether the batch was checked by the schema or not", async () => {
    const inOrder = `{"stream":"transactional","messages":[{"tos":["${TO}"],"body":"a"},{"tos":["${TO}"],"template":{"id":"t","model":{"b":1,"a":2}}}]}`;
    const reordered = `{"messages":[{"body":"a","tos":["${TO}"]},{"template":{"model":{"b":1,"a":2},"id":"t"},"tos":["${TO}"]}],"stream":"transactional"}`;
    expect(certainBatchRequest(JSON.parse(inOrder))).toBeDefined();
    expect(certainBatchRequest(JSON.parse(reordered))).toBeUndefined();
    for (const body of [inOrder, reordered]) {
      const answer = await call(emulator, "/v1/message_batches", { body, headers: { "content-type": "application/json" } });
      expect(answer.status).toBe(200);
    }
    const listing = await call(emulator, "/_emulator/batches");
    const expected = `"messages":[{"tos":["${TO}"],"body":"a"},{"tos":["${TO}"],"template":{"id":"t","model":{"b":1,"a":2}}}]`;
    expect(listing.text.split(expected).length - 1).toBe(2);
    await withEmulatorClient(emulator, async (client) => {
      const { batches } = await client.listBatches();
      expect(batches.map((batch) => batch.messages)).toEqual([JSON.parse(inOrder).messages, JSON.parse(inOrder).messages]);
    });
  });
});
