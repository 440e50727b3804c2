/**
 * One JSON text per value, whatever its key order: what message identities (`messaging send`, `MessageBatch`) are hashed from.
 * Frozen, since journals and stack states hold identities made with it: exactly `JSON.stringify` with each object rebuilt with
 * sorted keys, so integer-like keys ("0", "9", "10") come first in numeric order, as in every JavaScript object.
 */
export function canonicalJson(value: unknown): string {
  return write(value ?? null) ?? "null";
}

/** The text of `value`, or undefined where JSON.stringify leaves a value out (undefined, a function, a symbol). */
function write(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
    case "bigint": // JSON.stringify throws for it; so does this
      return JSON.stringify(value);
    case "object":
      break;
    default:
      return undefined;
  }
  if (value === null) return "null";
  const withJson = value as { toJSON?: (key: string) => unknown };
  if (typeof withJson.toJSON === "function") return write(withJson.toJSON(""));
  if (Array.isArray(value)) return `[${value.map((item) => write(item) ?? "null").join(",")}]`;
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  let integers = 0;
  while (integers < keys.length && isArrayIndex(keys[integers])) integers++;
  const ordered = integers === 0 ? keys.sort() : [...keys.slice(0, integers), ...keys.slice(integers).sort()];
  const parts: string[] = [];
  for (const key of ordered) {
    const text = write(object[key]);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(",")}}`;
}

/** A key JavaScript orders as an integer: a canonical decimal below 2^32 - 1. */
function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4294967295;
}
