import { canonicalJson } from "../../schemas/canonical-json";

/**
 * The definition the package has always hashed (MessageBatch digests in stack states were made
 * with it): JSON.stringify with a replacer that rebuilds each object with its entries sorted by
 * code unit. `canonicalJson` must write exactly this text for every value.
 */
const byCodeUnit = ([a]: [string, unknown], [b]: [string, unknown]): number => (a < b ? -1 : a > b ? 1 : 0);
const reference = (value: unknown): string =>
  JSON.stringify(value ?? null, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(byCodeUnit)) : v,
  );

describe("canonicalJson", () => {
  const cases: Array<[string, unknown]> = [
    ["a body message", { tos: ["+254712345678"], body: "Hello" }],
    ["mixed-case and nested model keys", { template: { id: "t", model: { Zeta: 1, alpha: "a", Beta: { y: [1, "x"], X: null } } } }],
    ["integer-like keys (ordered as numbers, first)", { b: 1, 10: "ten", 9: "nine", 0: "zero", a: 2 }],
    ["keys that look like integers but are not", { "01": 1, "-1": 2, "4294967295": 3, "4294967294": 4, "1.5": 5, "": 6 }],
    ["non-ASCII keys and values", { é: "ü", E: "e", "😀": "😀\u2028", z: 'quote " and \\ backslash' }],
    ["undefined, functions and symbols left out of objects, null in arrays", { a: undefined, b: () => 1, c: [undefined, () => 1, 1] }],
    ["numbers", { n: [0, -0, 1e21, 1.5e-7, -3.25, 123456789012345] }],
    ["empty object and array", { a: {}, b: [], c: [{}] }],
    ["a Date (toJSON)", { at: new Date(Date.UTC(2026, 10, 23)) }],
    ["top-level scalars and null", "text"],
    ["undefined at the top", undefined],
    ["null", null],
    ["an array of objects", [{ b: 1, a: 2 }, { d: [{ c: 1, B: 2 }] }]],
  ];

  it.each(cases)("%s: the same text as the replacer definition", (_name, value) => {
    expect(canonicalJson(value)).toBe(reference(value));
  });

  it("is independent of key insertion order", () => {
    expect(canonicalJson({ b: 1, a: { d: 1, c: 2 } })).toBe(canonicalJson({ a: { c: 2, d: 1 }, b: 1 }));
    expect(canonicalJson({ b: 1, a: { d: 1, c: 2 } })).toBe('{"a":{"c":2,"d":1},"b":1}');
  });

  it("matches the definition on many generated values", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const keys = ["a", "B", "b", "10", "9", "0", "é", "_", "Z", "01", "tos", "body"];
    const value = (depth: number): unknown => {
      const kind = Math.floor(random() * (depth > 2 ? 4 : 6));
      if (kind === 0) return Math.floor(random() * 1000) - 500;
      if (kind === 1) return `s${Math.floor(random() * 100)}`;
      if (kind === 2) return random() < 0.5;
      if (kind === 3) return null;
      if (kind === 4) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 5) }, () => [keys[Math.floor(random() * keys.length)], value(depth + 1)]),
      );
    };
    for (let i = 0; i < 2000; i++) {
      const v = value(0);
      expect(canonicalJson(v)).toBe(reference(v));
    }
  });
});
