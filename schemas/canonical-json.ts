/**
 * One JSON text per value, whatever the order its object keys were written in: what the
 * identities of messages (`messaging send`) and of a batch's messages (`MessageBatch`) are
 * hashed from. Frozen: identities stored in journals and stack states were made with it.
 *
 * The text is exactly `JSON.stringify(value ?? null, replacer)` where the replacer rebuilds
 * every object with its entries sorted by UTF-16 code unit (the form this package has always
 * hashed, pinned by its tests). Rebuilding objects made that the cost of a send, so this
 * writes the same text directly. One quirk of the original is kept on purpose: a rebuilt
 * object lists integer-like keys ("0", "9", "10") first, in numeric order, as every
 * JavaScript object does, and only then the other keys in code-unit order.
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
  // Object.keys lists integer-like keys first, ascending; the rest keep insertion order.
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
