// A module of its own, without zod: the client's public declarations must not reach zod's.
import type { FieldErrors } from "../schemas/field-errors";

// Symbol.for: the same key whichever copy of this module made the value.
const UNREADABLE_FIELDS = Symbol.for("pulumi-messaging.unreadableFields");

/**
 * The fields of an answer the client could not read and left out: field → why. Carried as a
 * hidden property (like stripe-node's `lastResponse`), so the answer's type and JSON are the schema's.
 */
export function unreadableFields(answer: unknown): FieldErrors {
  const fields = typeof answer === "object" && answer !== null ? (answer as Record<symbol, unknown>)[UNREADABLE_FIELDS] : undefined;
  return fields === undefined ? {} : { ...(fields as FieldErrors) };
}

export function markUnreadableFields(answer: object, fields: FieldErrors): void {
  Object.defineProperty(answer, UNREADABLE_FIELDS, { value: fields, enumerable: false });
}
