/**
 * Removes the API key from text that came from the server before it enters an error: a
 * server or proxy that echoes the request's `Authorization` header (in a problem's `detail`,
 * `title`, field names of `errors`, or any other member) must not put the key into
 * `err.message`, logs or `util.inspect` output.
 */

/** Stands in for the key wherever it was found. */
export const REDACTED = "[REDACTED]";

/** Replaces the key's forms in strings and in every string and key of a JSON value. */
export interface Redactor {
  /** `text` with every form of the key replaced by {@link REDACTED}. */
  text(text: string): string;
  /** A copy of a JSON value (as `JSON.parse` returns) with every string and key redacted; unchanged when nothing matched. */
  json<T>(value: T): T;
}

/**
 * A redactor for one API key: the key itself, its HTTP Basic form `base64(key + ":")` (with
 * and without padding) and the whole `Basic …` header value, and the key URL-encoded.
 */
export function createRedactor(apiKey: string): Redactor {
  const basic = Buffer.from(`${apiKey}:`, "utf8").toString("base64");
  const forms = [...new Set([`Basic ${basic}`, basic, basic.replace(/=+$/, ""), apiKey, encodeURIComponent(apiKey)])]
    .filter((form) => form.length >= 4)
    // Longest first, so the header value goes before its base64 part.
    .sort((a, b) => b.length - a.length);
  const text = (input: string): string => {
    let output = input;
    for (const form of forms) if (output.includes(form)) output = output.split(form).join(REDACTED);
    return output;
  };
  const json = <T>(value: T): T => redactJson(value, text, 0) as T;
  return { text, json };
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
