/**
 * During `pulumi preview`, inputs that depend on not-yet-created resources reach a dynamic
 * provider as this sentinel string (`rpc.unknownValue` in the SDK).
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True when the value, or anything inside it, is not known yet. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (typeof value === "object" && value !== null) return Object.values(value).some(containsUnknown);
  return false;
}
