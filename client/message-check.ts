import { E164_PATTERN } from "../schemas/phone-number";
import type { Message } from "../schemas/types";

/**
 * A precompiled check of the common valid message, for speed: true only for a plain object
 * that the `Message` schema certainly accepts as it is (`tos`: 1+ E.164 strings; exactly one
 * of a non-empty `body` or a `template` `{ id: non-empty string, model: a plain object of
 * strings, finite numbers, booleans and nulls }`; no other key). It never decides that a message is invalid: anything else goes to the zod
 * schema, which stays the judge of validity and the author of every error message. A test
 * holds the two to agreement on every case of the schema's tests.
 *
 * Whatever passes is sent as the caller gave it (no copy), so it must be exactly what the
 * schema would output: plain objects only (no getters, no class instances), no `undefined`
 * members.
 */
export function isCertainlyValidMessage(value: unknown): value is Message {
  if (!isPlainObject(value)) return false;
  let keys = 0;
  let tos: unknown;
  let body: unknown;
  let template: unknown;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) return false;
    keys++;
    if (key === "tos") tos = (value as Record<string, unknown>).tos;
    else if (key === "body") body = (value as Record<string, unknown>).body;
    else if (key === "template") template = (value as Record<string, unknown>).template;
    else return false;
  }
  if (keys !== 2 || !isPhoneList(tos)) return false;
  if (body !== undefined) return typeof body === "string" && body.length > 0;
  return isTemplate(template);
}

function isPhoneList(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const to = value[i];
    if (typeof to !== "string" || !E164_PATTERN.test(to)) return false;
  }
  return true;
}

function isTemplate(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  let keys = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || (key !== "id" && key !== "model")) return false;
    keys++;
  }
  const { id, model } = value as { id?: unknown; model?: unknown };
  return keys === 2 && typeof id === "string" && id.length > 0 && isFlatModel(model);
}

// The common model: a plain object of strings, finite numbers, booleans and nulls. Anything
// else (nested values, a `__proto__` key, a number JSON cannot carry) is left to the schema.
function isFlatModel(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || key === "__proto__") return false;
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === "number" ? !Number.isFinite(item) : item !== null && typeof item !== "string" && typeof item !== "boolean")
      return false;
  }
  return true;
}

function isPlainObject(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
