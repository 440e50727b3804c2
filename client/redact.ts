export const REDACTED = "[REDACTED]";

export interface Redactor {
  text(text: string): string;
  /** A copy with every string and key redacted; unchanged when nothing matched. */
  json<T>(value: T): T;
}

/**
 * Removes the API key from text the server sent before it enters an error, log or `inspect`
 * output: a server or proxy may echo the `Authorization` header anywhere in a problem. It
 * finds, in any letter case, the key, its hex, and the base64 forms of the credentials and
 * the header, each character also percent-encoded or as an HTML reference, and the forms
 * broken by spaces or zero-width characters. Forms under 4 characters would match ordinary text.
 */
export function createRedactor(apiKey: string): Redactor {
  const base64Forms = (bytes: string): string[] => {
    const standard = Buffer.from(bytes, "utf8").toString("base64");
    const url = Buffer.from(bytes, "utf8").toString("base64url");
    return [standard, standard.replace(/=+$/, ""), url];
  };
  // Longest first, so a longer form is replaced whole before a shorter one inside it.
  const longestFirst = (list: string[]) => [...new Set(list)].filter((form) => form.length >= 4).sort((a, b) => b.length - a.length);
  const credentials = Buffer.from(`${apiKey}:`, "utf8").toString("base64");
  const encoded = longestFirst([
    ...base64Forms(`Authorization: Basic ${credentials}`),
    ...base64Forms(`Basic ${credentials}`),
    ...base64Forms(`${apiKey}:`),
    ...base64Forms(apiKey),
  ]).map(tolerantForm);
  const plain = longestFirst([apiKey, Buffer.from(apiKey, "utf8").toString("hex")]).map(tolerantForm);
  // The whole header value first (`Basic <credentials>` becomes one [REDACTED]), then each form.
  const alternatives = [...(encoded.length > 0 ? [`basic\\s+(?:${encoded.join("|")})`] : []), ...encoded, ...plain];
  const pattern = alternatives.length === 0 ? undefined : new RegExp(alternatives.join("|"), "gi");
  const text = (input: string): string => (pattern === undefined ? input : input.replace(pattern, REDACTED));
  const json = <T>(value: T): T => redactJson(value, text, 0) as T;
  return { text, json };
}

// What may break a form without hiding it from a reader: line breaks, spaces, tabs, and the
// invisible zero-width characters (ZWSP, ZWNJ, ZWJ, word joiner, BOM, soft hyphen).
const BREAK = "[\\s\\u200B-\\u200D\\u2060\\uFEFF\\u00AD]*";

function tolerantForm(form: string): string {
  return [...form]
    .map((char) => {
      const code = char.codePointAt(0)!;
      const percent = [...Buffer.from(char, "utf8")].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
      return `(?:${escapeRegExp(char)}|${percent}|&#0*${code};|&#x0*${code.toString(16)};)`;
    })
    .join(BREAK);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

// Deep enough for any problem body; deeper values are dropped rather than walked.
const MAX_DEPTH = 32;

function redactJson(value: unknown, text: (input: string) => string, depth: number): unknown {
  if (typeof value === "string") return text(value);
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactJson(item, text, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // defineProperty: a `__proto__` key stays an ordinary own member.
    Object.defineProperty(copy, text(key), {
      value: redactJson(item, text, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}
