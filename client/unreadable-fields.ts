/**
 * The fields of an answer the client left out because it could not read them. A module of its
 * own, without zod: the client's public declarations must not reach zod's.
 */
import type { FieldErrors } from "../schemas/field-errors";

// Symbol.for: the same key whichever copy of this module made the value.
const UNREADABLE_FIELDS = Symbol.for("pulumi-messaging.unreadableFields");

/**
 * The fields of a parsed answer that the service sent in a form the client could not read,
 * and so left out (see `parseResponseBody`): field → why. Empty when there were none.
 * Like stripe-node's `lastResponse`, carried on the answer as a hidden property, so the
 * answer's type and its JSON stay as the schema defines them.
 */
export function unreadableFields(answer: unknown): FieldErrors {
  const fields = typeof answer === "object" && answer !== null ? (answer as Record<symbol, unknown>)[UNREADABLE_FIELDS] : undefined;
  return fields === undefined ? {} : { ...(fields as FieldErrors) };
}

/** Records on `answer` (hidden, not enumerable) the fields left out of it. */
export function markUnreadableFields(answer: object, fields: FieldErrors): void {
  Object.defineProperty(answer, UNREADABLE_FIELDS, { value: fields, enumerable: false });
}
