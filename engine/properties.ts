import { isDeepStrictEqual } from "node:util";

/**
 * The engine's equality of property maps (sdk/go/common/resource/properties_diff.go
 * `PropertyMap.DeepEquals`, and `PropertyMap.Diff` for the engine's own diff): a key holding
 * null is the same as no key, at any depth of objects.
 */
export function sameProperties(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(withoutNulls(a), withoutNulls(b));
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, inner]) => inner !== null && inner !== undefined)
        .map(([key, inner]) => [key, withoutNulls(inner)]),
    );
  }
  return value;
}
