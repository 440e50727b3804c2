/**
 * The UTF-8 size of `JSON.stringify(value)` for a JSON value, without building the text (stringifying a large string is slow).
 * Iterative, so depth costs no stack.
 * @param options.escapeFree no string holds anything JSON escapes, so none is searched: true of what `JSON.parse` read from
 *   valid UTF-8 text without a backslash (JSON cannot carry a quote or control character unescaped, nor UTF-8 a lone surrogate).
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
      total += 2 + Math.max(0, v.length - 1);
      for (const item of v) stack.push(item === undefined ? null : item);
    } else {
      let members = 0;
      for (const [key, member] of Object.entries(v)) {
        if (member === undefined) continue;
        members++;
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
