// Messages checked one at a time, as a stream needs. The client and `messaging send` both use these, so they agree on every message.
import { addFieldError, formatPath, mergeFieldErrors, toFieldErrors, type FieldErrors, type IssueLike } from "./field-errors";
import { isExactJsonNumber } from "./json-number";
import { Message as MessageSchema } from "./message-batch";
import type { Message } from "./types";

/** At most this many invalid messages are listed in one `ValidationError`; the rest are counted. */
export const MAX_REPORTED_INVALID_MESSAGES = 100;

/** Where an item sits in the input: a path its field paths continue (`messages[3].tos[0]`), or a label (`line 4: tos[0]`). */
export type ItemLocation = readonly PropertyKey[] | string;

export type MessageVerdict =
  { readonly ok: true; readonly message: Message } | { readonly ok: false; readonly issues: readonly IssueLike[] };

/** Validates one message: the common valid one passes a precompiled check uncopied; anything else goes to the zod schema. */
export function checkMessage(value: unknown): MessageVerdict {
  if (isCertainlyValidMessage(value)) return { ok: true, message: value };
  const result = MessageSchema.safeParse(value);
  return result.success ? { ok: true, message: result.data } : { ok: false, issues: result.error.issues };
}

/** Collects invalid messages for one `ValidationError`: lists the first {@link MAX_REPORTED_INVALID_MESSAGES}, counts the rest. */
export class InvalidMessages {
  #errors: FieldErrors = {};
  #count = 0;

  /** @param overflowKey key of the field error that counts the invalid messages not listed */
  constructor(private readonly overflowKey: string) {}

  get count(): number {
    return this.#count;
  }

  addIssues(location: ItemLocation, issues: readonly IssueLike[]): void {
    this.#add(() => locatedFieldErrors(location, issues));
  }

  addFieldErrors(errors: FieldErrors): void {
    this.#add(() => errors);
  }

  addReason(location: ItemLocation, reason: string): void {
    this.#add(() => ({ [typeof location === "string" ? location : formatPath(location)]: [reason] }));
  }

  /** Undefined when every message was valid. */
  fieldErrors(): FieldErrors | undefined {
    if (this.#count === 0) return undefined;
    const errors: FieldErrors = {};
    mergeFieldErrors(errors, this.#errors);
    if (this.#count > MAX_REPORTED_INVALID_MESSAGES) {
      addFieldError(
        errors,
        this.overflowKey,
        `${this.#count - MAX_REPORTED_INVALID_MESSAGES} more invalid message(s) not listed (${this.#count} in all)`,
      );
    }
    return errors;
  }

  // The location is worked out only for the messages listed.
  #add(errors: () => FieldErrors): void {
    this.#count++;
    if (this.#count <= MAX_REPORTED_INVALID_MESSAGES) mergeFieldErrors(this.#errors, errors());
  }
}

function locatedFieldErrors(location: ItemLocation, issues: readonly IssueLike[]): FieldErrors {
  if (typeof location !== "string") return toFieldErrors(issues, location);
  const errors: FieldErrors = {};
  for (const [field, reasons] of Object.entries(toFieldErrors(issues))) addFieldError(errors, `${location}: ${field}`, ...reasons);
  return errors;
}

/**
 * A fast check, true only for a message the `Message` schema certainly accepts as it is; it never rejects (the schema judges and
 * words every error; a test holds the two in agreement). What passes is sent uncopied, so it must equal the schema's output.
 */
export function isCertainlyValidMessage(value: unknown): value is Message {
  if (!isPlainObject(value)) return false;
  let keys = 0;
  let tos: unknown;
  let body: unknown;
  let template: unknown;
  for (const key in value) {
    keys++;
    if (key === "tos") tos = (value as Record<string, unknown>).tos;
    else if (key === "body") body = (value as Record<string, unknown>).body;
    else if (key === "template") template = (value as Record<string, unknown>).template;
    else return false;
  }
  if (keys !== 2 || !inheritsNoEnumerableKey() || !isPhoneList(tos)) return false;
  if (body !== undefined) return typeof body === "string" && body.length > 0;
  return isTemplate(template);
}

function isPhoneList(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const to = value[i];
    if (typeof to !== "string" || !isE164(to)) return false;
  }
  return true;
}

/** `E164_PATTERN.test(text)` without the regex call, which is slower. */
export function isE164(text: string): boolean {
  const n = text.length;
  if (n < 8 || n > 16 || text.charCodeAt(0) !== 0x2b /* + */) return false;
  const first = text.charCodeAt(1);
  if (first < 0x31 || first > 0x39) return false;
  for (let i = 2; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

function isTemplate(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  let keys = 0;
  for (const key in value) {
    if (key !== "id" && key !== "model") return false;
    keys++;
  }
  const { id, model } = value as { id?: unknown; model?: unknown };
  return keys === 2 && typeof id === "string" && id.length > 0 && isFlatModel(model);
}

// Flat models only; anything else is left to the schema.
function isFlatModel(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  for (const key in value) {
    if (key === "__proto__") return false;
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === "number" ? !isExactJsonNumber(item) : item !== null && typeof item !== "string" && typeof item !== "boolean")
      return false;
  }
  return true;
}

// The loops above take every `for…in` key as own (no `Object.hasOwn` per key): true while `Object.prototype` has no enumerable key.
function inheritsNoEnumerableKey(): boolean {
  for (const _ in Object.prototype) return false;
  return true;
}

function isPlainObject(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
