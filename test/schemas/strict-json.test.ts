/** The one JSON reading rule (`parseStrictJson`) and UTF-8 decoding (`decodeUtf8Text`): exact, or refused by path and reason. */
import { jsonByteLength } from "../../schemas/json-size";
import { decodeUtf8Text, findTextHazards, jsonHazardField, numberProblem, parseStrictJson, wideEncoding } from "../../schemas";

/** `field: message` of each problem, or "ok" / "syntax". */
function verdict(text: string): string[] | "ok" | "syntax" {
  const result = parseStrictJson(text);
  if (result.ok) return "ok";
  if (result.syntax !== undefined) return "syntax";
  return result.problems.map((p) => `${jsonHazardField(p)}: ${p.message}`);
}

describe("parseStrictJson (its refusals and what it keeps, row by row, are in test/hostile/cases.ts)", () => {
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
