/**
 * `parseJsonSlices` reads long JSON texts without copying their strings; it must read exactly
 * what `JSON.parse` reads and refuse exactly what it refuses. Compared on generated texts and
 * on mutations of them (a seeded generator, so a failure names a reproducible text).
 */
import { parseJsonSlices } from "../../schemas/json-slices";
import { parseStrictJson } from "../../schemas";
// The emulator's seeded generator: a failure names a text that repeats.
import { mulberry32 as random } from "../../emulator/faults/fault-choice";
import { NUMBER_SPELLINGS } from "../support/number-spellings";

const STRINGS = [
  "",
  "a",
  "hello world",
  "é ü 漢字 😀",
  'quote " in',
  "back\\slash",
  "line\nbreak",
  "\u0000\u001f",
  "\ud800 lone",
  "__proto__",
  "1",
  "x".repeat(40),
];
const NUMBERS = NUMBER_SPELLINGS;
const SPACE = ["", " ", "\n", "\r\n", "\t", "  "];

/** JSON text of a random value; strings written by JSON.stringify, so escapes vary. */
function jsonText(next: () => number, depth = 0): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const ws = () => pick(SPACE);
  const kind = depth > 4 ? Math.floor(next() * 3) : Math.floor(next() * 6);
  if (kind === 0) return JSON.stringify(pick(STRINGS));
  if (kind === 1) return pick(NUMBERS);
  if (kind === 2) return pick(["true", "false", "null"]);
  const size = Math.floor(next() * 4);
  if (kind === 3) return `[${ws()}${Array.from({ length: size }, () => `${ws()}${jsonText(next, depth + 1)}${ws()}`).join(",")}]`;
  // Keys may repeat: JSON.parse keeps the last value, in the first key's place.
  return `{${ws()}${Array.from({ length: size }, () => `${JSON.stringify(pick(STRINGS))}${ws()}:${ws()}${jsonText(next, depth + 1)}`).join(`,${ws()}`)}${ws()}}`;
}

/** A description of a value that tells apart what deep equality would not: -0, own `__proto__`, key order. */
function shape(value: unknown): unknown {
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : value;
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === "object") {
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    return Object.getOwnPropertyNames(value).map((key) => [key, shape((value as Record<string, unknown>)[key])]);
  }
  return value;
}

function jsonParse(text: string): { value: unknown } | "refused" {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return "refused";
  }
}

function expectSameReading(text: string): void {
  const expected = jsonParse(text);
  const actual = parseJsonSlices(text);
  if (expected === "refused") expect({ text, actual }).toEqual({ text, actual: undefined });
  else expect({ text, value: actual === undefined ? "refused" : shape(actual.value) }).toEqual({ text, value: shape(expected.value) });
}

const MUTATIONS = ['"', "\\", ",", ":", "{", "}", "[", "]", "-", "0", "1", ".", "e", "+", " ", "\u0001", "u", "n", "t"];

describe("parseJsonSlices reads what JSON.parse reads", () => {
  it("on 3,000 generated texts", () => {
    const next = random(1);
    for (let i = 0; i < 3_000; i++) expectSameReading(`${SPACE[i % SPACE.length]}${jsonText(next)}${SPACE[(i * 7) % SPACE.length]}`);
  });

  it("and refuses what it refuses, on 8,000 mutations of them (a character deleted, inserted or replaced)", () => {
    const next = random(2);
    let refused = 0;
    for (let i = 0; i < 8_000; i++) {
      const text = jsonText(next);
      const at = Math.floor(next() * (text.length + 1));
      const char = MUTATIONS[Math.floor(next() * MUTATIONS.length)];
      const op = Math.floor(next() * 3);
      const mutated =
        op === 0
          ? text.slice(0, at) + text.slice(at + 1)
          : op === 1
            ? text.slice(0, at) + char + text.slice(at)
            : text.slice(0, at) + char + text.slice(at + 1);
      expectSameReading(mutated);
      if (jsonParse(mutated) === "refused") refused++;
    }
    // The mutations reach both sides: many texts stay JSON, many do not.
    expect(refused).toBeGreaterThan(2_000);
    expect(refused).toBeLessThan(7_200);
  });

  it.each([
    ["a raw control character in a string", '"a\u0001b"'],
    ["a bad escape", '"a\\x"'],
    ["a short \\u escape", '"\\u12"'],
    ["a backslash at the end", '"abc\\'],
    ["an unterminated string", '"abc'],
    ["a leading zero", "01"],
    ["a bare point", "1."],
    ["a leading point", ".5"],
    ["a plus sign", "+1"],
    ["a lone minus", "-"],
    ["a trailing comma", "[1,]"],
    ["a byte order mark", "\ufeff{}"],
    ["single quotes", "{'a':1}"],
    ["two values", "1 2"],
    ["nothing", ""],
  ])("refuses %s", (_, text) => {
    expect(jsonParse(text)).toBe("refused");
    expect(parseJsonSlices(text)).toBeUndefined();
  });

  it("gives nesting deeper than it walks back to JSON.parse, and the reading rule still applies", () => {
    const deep = `${"[".repeat(300)}${"]".repeat(300)}`;
    expect(parseJsonSlices(deep)).toBeUndefined();
    const long = `{"body":"${"x".repeat(200_000)}","pad":[${deep}]}`;
    expect(parseStrictJson(long)).toMatchObject({ ok: false, problems: [{ message: expect.stringMatching(/nested more than/) }] });
  });

  it("is what parseStrictJson uses for a long text: a 1 MiB message reads as JSON.parse reads it, its rule checks included", () => {
    const body = "é".repeat(512 * 1024);
    const text = JSON.stringify({ tos: ["+254712345678"], body, note: "tab\there", n: -12.5 });
    expect(parseStrictJson(text)).toEqual({ ok: true, value: JSON.parse(text) });
    expect(parseStrictJson(`{"body":"${body}","body":"again"}`)).toMatchObject({
      ok: false,
      problems: [{ path: ["body"], message: "this key appears more than once in the object" }],
    });
    expect(parseStrictJson(`{"body":"${body}","n":1e-400}`)).toMatchObject({ ok: false, problems: [{ path: ["n"] }] });
    expect(parseStrictJson(`{"body":"${body}",}`)).toMatchObject({ ok: false, syntax: expect.any(String) });
  });
});
