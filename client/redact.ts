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
 * A redactor for one API key. It finds, in any letter case (a proxy may upper-case what it
 * echoes, or write `basic` for `Basic`):
 *
 * - the key itself, and URL-encoded;
 * - the HTTP Basic credentials `base64(key + ":")` and the bare `base64(key)`, each with and
 *   without `=` padding and in the base64url alphabet — which also covers every form of the
 *   `Authorization` header (`Basic …`, `basic …`, `BASIC …`), whose secret part they are.
 *
 * Forms shorter than 4 characters are not searched for (they would match ordinary text).
 */
export function createRedactor(apiKey: string): Redactor {
  const base64Forms = (bytes: string): string[] => {
    const standard = Buffer.from(bytes, "utf8").toString("base64");
    const url = Buffer.from(bytes, "utf8").toString("base64url");
    return [standard, standard.replace(/=+$/, ""), url];
  };
  // Longest first, so a longer form is replaced whole before a shorter one inside it.
  const longestFirst = (list: string[]) => [...new Set(list)].filter((form) => form.length >= 4).sort((a, b) => b.length - a.length);
  const encoded = longestFirst([...base64Forms(`${apiKey}:`), ...base64Forms(apiKey)]).map(escapeRegExp);
  const plain = longestFirst([apiKey, encodeURIComponent(apiKey)]).map(escapeRegExp);
  // The whole header value first (`Basic <credentials>` becomes one [REDACTED]), then each form.
  const alternatives = [...(encoded.length > 0 ? [`basic\\s+(?:${encoded.join("|")})`] : []), ...encoded, ...plain];
  const pattern = alternatives.length === 0 ? undefined : new RegExp(alternatives.join("|"), "gi");
  const text = (input: string): string => (pattern === undefined ? input : input.replace(pattern, REDACTED));
  const json = <T>(value: T): T => redactJson(value, text, 0) as T;
  return { text, json };
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
