/**
 * The UTF-8 size of `JSON.stringify(value)`, in bytes, without building the text: a walk of
 * the value in which a string is measured with `Buffer.byteLength` when it holds nothing JSON
 * escapes (the common case, and the fast one for a string of megabytes: `JSON.stringify` of a
 * 20 MB string takes most of a second), and is stringified alone otherwise. For a JSON value
 * (plain objects, arrays, strings, finite numbers, booleans, null); `undefined` members are
 * left out, as `JSON.stringify` does. Iterative, so depth costs no stack.
 * @param options.escapeFree every string in `value` is known to hold nothing JSON escapes,
 *   so none is searched for it (a search costs about a millisecond per megabyte). True of a
 *   value `JSON.parse` read from text without a backslash, when that text was decoded from
 *   valid UTF-8: JSON text cannot carry a quote, a backslash or a control character in a
 *   string unescaped, and valid UTF-8 cannot carry a lone surrogate. Default false.
 */
export function jsonByteLength(value: unknown, options: { readonly escapeFree?: boolean } = {}): number {
  const measure = options.escapeFree === true ? (text: string) => Buffer.byteLength(text, "utf8") + 2 : stringBytes;
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") total += measure(v);
    else if (typeof v === "number") total += Number.isFinite(v) ? String(v).length : 4;
    else if (typeof v === "boolean") total += v ? 4 : 5;
    else if (v === null || typeof v !== "object") total += 4;
    else if (Array.isArray(v)) {
      // Brackets, and a comma between items.
      total += 2 + Math.max(0, v.length - 1);
      for (const item of v) stack.push(item === undefined ? null : item);
    } else {
      let members = 0;
      for (const [key, member] of Object.entries(v)) {
        if (member === undefined) continue;
        members++;
        // "key": value
        total += measure(key) + 1;
        stack.push(member);
      }
      total += 2 + Math.max(0, members - 1);
    }
  }
  return total;
}

// Characters JSON.stringify escapes: quote, backslash, control characters, lone surrogates
// (a surrogate pair is kept; the test below is conservative and falls back to stringify).
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function stringBytes(text: string): number {
  if (!NEEDS_ESCAPE.test(text)) return Buffer.byteLength(text, "utf8") + 2;
  return Buffer.byteLength(JSON.stringify(text), "utf8");
}
