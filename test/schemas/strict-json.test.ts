/** The one JSON reading rule (`parseStrictJson`) and UTF-8 decoding (`decodeUtf8Text`): exact, or refused by path and reason. */
import { jsonByteLength } from "../../schemas/json-size";
import { parseJsonSlices } from "../../schemas/json-slices";
import { certainlyClean } from "../../schemas/strict-json";
import {
  decodeUtf8Text,
  findJsonHazards,
  findTextHazards,
  jsonHazardField,
  numberProblem,
  parseStrictJson,
  wideEncoding,
} from "../../schemas";
import { mulberry32 } from "../../emulator/faults/fault-choice";
import { HOSTILE_CASES } from "../support/hostile-cases";
import { NUMBER_SPELLINGS } from "../support/number-spellings";

/** `field: message` of each problem, or "ok" / "syntax". */
function verdict(text: string): string[] | "ok" | "syntax" {
  const result = parseStrictJson(text);
  if (result.ok) return "ok";
  if (result.syntax !== undefined) return "syntax";
  return result.problems.map((p) => `${jsonHazardField(p)}: ${p.message}`);
}

describe("parseStrictJson (its refusals and what it keeps, row by row, are in test/support/hostile-cases.ts)", () => {
  it("finds a duplicate among more than 16 keys", () => {
    const text = `{${Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(",")},"k7":0}`;
    expect(verdict(text)).toEqual(["k7: this key appears more than once in the object"]);
  });

  it("reports syntax errors as such", () => {
    expect(verdict('{"a":}')).toBe("syntax");
    expect(verdict("")).toBe("syntax");
  });

  it("reports each problem once, text problems before value problems", () => {
    expect(verdict('{"a":1e-400,"b":-0,"a":2}')).toEqual([
      "a: 1e-400 is too small for a double-precision number: it would be read as 0",
      "a: this key appears more than once in the object",
      "b: expected a number other than -0 (JSON would carry it as 0)",
    ]);
  });

  it("stops at the limit", () => {
    const text = `[${Array.from({ length: 100 }, () => "1e-400").join(",")}]`;
    expect(parseStrictJson(text, { limit: 5 })).toMatchObject({ ok: false, problems: { length: 5 } });
  });

  it("walks a value nested 100,000 deep without a stack overflow", () => {
    const text = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(verdict(text)).toEqual([expect.stringMatching(/nested more than 32 levels deep/)]);
  });

  it("scans text whose strings hold many escaped quotes in one pass", () => {
    expect(findTextHazards(`{"a":"${'\\"'.repeat(100_000)}","a":1}`)).toHaveLength(1);
  });
});

describe("certainlyClean: the short way through parseStrictJson finds nothing the long way would", () => {
  // The emulator's seeded generator, so a failure names a reproducible text.
  const random = mulberry32(20_261_124);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  // Keys that collide once decoded ("a" and "\u0061"), strings that hold colons, quotes and backslashes.
  const KEYS = ['"a"', '"b"', '"\\u0061"', '"tos"', '"__proto__"', '"1"', '"a:b"', '":"', '"\\""', '"x\\\\"', '"constructor"'];
  const STRINGS = ['""', '"x"', '":"', '"a\\":1"', '"\\\\"', '"+254712345678"', '"1e400"', '"{\\"a\\":1}"'];
  const NUMBERS = NUMBER_SPELLINGS;
  const SPACE = ["", "", "", " ", "\n", "\t"];

  function text(depth: number): string {
    const ws = () => pick(SPACE);
    const kind = depth > 34 ? pick([0, 1, 2]) : depth > 3 && random() < 0.9 ? pick([0, 1, 2]) : pick([0, 1, 2, 3, 4, 4, 5]);
    if (kind === 0) return pick(STRINGS);
    if (kind === 1) return pick(NUMBERS);
    if (kind === 2) return pick(["true", "false", "null"]);
    if (kind === 5) {
      // Nesting around MAX_JSON_DEPTH (32), counted from here.
      const levels = 28 + Math.floor(random() * 8) - depth;
      return pick([`${"[".repeat(levels)}1${"]".repeat(levels)}`, `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`]);
    }
    const size = Math.floor(random() * 4);
    if (kind === 3) return `[${Array.from({ length: size }, () => `${ws()}${text(depth + 1)}${ws()}`).join(",")}]`;
    return `{${Array.from({ length: size }, () => `${ws()}${pick(KEYS)}${ws()}:${ws()}${text(depth + 1)}`).join(",")}${ws()}}`;
  }

  // Refused where the long way refuses: both finders find nothing whenever the check says clean.
  function agree(source: string, read: (text: string) => unknown = JSON.parse): "clean" | "left" | "not JSON" {
    let value: unknown;
    try {
      value = read(source);
    } catch {
      return "not JSON";
    }
    if (!certainlyClean(source, value)) return "left";
    expect({ source, text: findTextHazards(source), value: findJsonHazards(value) }).toEqual({ source, text: [], value: [] });
    return "clean";
  }

  it("on 20,000 generated texts, with duplicate keys, inexact numbers, -0, __proto__ and deep nesting among them", () => {
    const ways = { clean: 0, left: 0, hazards: 0 };
    for (let i = 0; i < 20_000; i++) {
      const source = text(1);
      const way = agree(source);
      if (way === "clean") ways.clean++;
      else if (way === "left") {
        const value = JSON.parse(source) as unknown;
        if (findTextHazards(source).length + findJsonHazards(value).length > 0) ways.hazards++;
        else ways.left++;
      }
    }
    expect(ways.clean).toBeGreaterThan(3000);
    expect(ways.hazards).toBeGreaterThan(3000);
  });

  it("on long texts read by parseJsonSlices, a duplicate key among 10,000 objects included", () => {
    const item = (i: number) => `{"tos":["+2547${String(10_000_000 + i)}"],"body":"Your code is ${i}: fine"}`;
    const items = Array.from({ length: 10_000 }, (_, i) => item(i));
    const clean = `{"stream":"transactional","messages":[${items.join(",")}]}`;
    expect(clean.length).toBeGreaterThan(128 * 1024);
    const read = (source: string) => parseJsonSlices(source)?.value;
    expect(agree(clean, read)).toBe("clean");
    for (const flaw of ['"body":"x","body"', '"tos":[-0],"x"', '"tos":[1e400],"x"', '"__proto__":{},"x"']) {
      const flawed = clean.replace(`"body":"Your code is 5000: fine"`, `${flaw}:"y"`);
      expect(agree(flawed, read)).toBe("left");
      expect(parseStrictJson(flawed).ok).toBe(false);
    }
  });

  it("on every JSON text of the hostile-input table, refusing each text it refuses", () => {
    let texts = 0;
    for (const row of HOSTILE_CASES) {
      const source =
        row.via === "parseStrictJson"
          ? row.text
          : row.via === "emulator" && typeof row.options.body === "string"
            ? row.options.body
            : row.via === "parseEvent" && typeof row.body === "string"
              ? row.body
              : undefined;
      if (source === undefined) continue;
      texts++;
      if (agree(source) === "clean") expect(parseStrictJson(source).ok).toBe(true);
    }
    expect(texts).toBeGreaterThan(30);
  });
});

describe("numberProblem", () => {
  it.each(["0", "-1", "1.0", "1e2", "1E+2", "123456789012345", "0.000001", "5e-324", "1.7976931348623157e308"])(
    "%s reads back exactly",
    (token) => {
      expect(numberProblem(token)).toBeUndefined();
    },
  );
  it.each(["2e-324", "1.00000000000000001", "123456789012345678"])("%s does not", (token) => {
    expect(numberProblem(token)).toMatch(/would be read as/);
  });
});

describe("decodeUtf8Text (UTF-8 only)", () => {
  const bytes = (...list: number[]) => Uint8Array.from(list);
  it.each<[string, Uint8Array, RegExp]>([
    ["UTF-16LE with its byte order mark", bytes(0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00), /UTF-16LE \(byte order mark FF FE\); only UTF-8/],
    ["UTF-16BE with its byte order mark", bytes(0xfe, 0xff, 0x00, 0x7b, 0x00, 0x7d), /UTF-16BE/],
    ["UTF-16LE without a mark", Uint8Array.from(Buffer.from('{"a":1}', "utf16le")), /UTF-16 or UTF-32/],
    ["UTF-32BE with its mark", bytes(0, 0, 0xfe, 0xff, 0, 0, 0, 0x7b), /UTF-32BE/],
    ["invalid UTF-8", bytes(0x7b, 0xff, 0x7d), /not valid UTF-8 \(first invalid byte at offset 1\)/],
  ])("refuses %s by name", (_, input, expected) => {
    const result = decodeUtf8Text(input, "the body");
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(expected);
  });

  it("drops one UTF-8 byte order mark and keeps the rest as written", () => {
    expect(decodeUtf8Text(Uint8Array.from(Buffer.from("\ufeff\ufeff{}")), "x")).toEqual({ ok: true, text: "\ufeff{}" });
    expect(decodeUtf8Text(Uint8Array.from(Buffer.from("café")), "x")).toEqual({ ok: true, text: "café" });
  });

  it("a single byte or an empty body is not taken for UTF-16", () => {
    expect(wideEncoding(bytes(0x31))).toBeUndefined();
    expect(wideEncoding(bytes())).toBeUndefined();
  });
});

describe("jsonByteLength is the UTF-8 size of JSON.stringify", () => {
  it.each<[string, unknown]>([
    ["a message", { tos: ["+254712345678"], body: "hello" }],
    [
      "escapes and non-ASCII",
      { a: 'quote " back \\ nl \n tab \t ctl \u0001 é € 𝄞 lone \ud800', 'k"ey': [1, -2.5, 1e-7, true, false, null] },
    ],
    ["empty containers and undefined members", { a: {}, b: [], c: undefined, d: [undefined, 1] }],
    ["nesting", [[[{ x: [[]] }]]]],
  ])("%s", (_, value) => {
    expect(jsonByteLength(value)).toBe(Buffer.byteLength(JSON.stringify(value), "utf8"));
  });

  it("takes the caller's word that nothing needs escaping (escapeFree), for a value read from JSON text without a backslash", () => {
    const text = JSON.stringify({ tos: ["+254712345678"], body: "é € 𝄞 ~ \u007f \u2028", ké: [1, null, { x: "y".repeat(300_000) }] });
    expect(text.includes("\\")).toBe(false);
    const value: unknown = JSON.parse(text);
    expect(jsonByteLength(value, { escapeFree: true })).toBe(Buffer.byteLength(text, "utf8"));
    // The promise is the caller's: a string that does need escaping is then under-counted.
    expect(jsonByteLength({ a: 'x"y' }, { escapeFree: true })).toBeLessThan(Buffer.byteLength(JSON.stringify({ a: 'x"y' })));
  });
});
