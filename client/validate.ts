import type { z } from "zod";
import { ValidationError } from "../errors/messaging-error";
import { toFieldErrors, type FieldErrors } from "../schemas/field-errors";
import { Message } from "../schemas/message-batch";

/** At most this many invalid messages are listed in one `ValidationError`; the rest are counted. */
export const MAX_REPORTED_INVALID_MESSAGES = 100;

/**
 * Validates input before any request is made: returns the schema's output, or throws a
 * {@link ValidationError} naming every bad field (`messages[1].tos[0]: expected …`).
 * @param what names the input in the message, e.g. `"message batch"`
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(what, toFieldErrors(result.error.issues));
  return result.data;
}

/**
 * Validates a run of messages that starts at position `offset` of the caller's whole input,
 * so errors name the position there (`messages[1523].tos[0]`). Throws a
 * {@link ValidationError} listing the first {@link MAX_REPORTED_INVALID_MESSAGES} invalid
 * messages and counting the rest.
 */
export function parseMessages(items: readonly unknown[], offset: number, what = "messages"): Message[] {
  const parsed: Message[] = [];
  const errors: FieldErrors = {};
  let invalid = 0;
  items.forEach((item, i) => {
    const result = Message.safeParse(item);
    if (result.success) {
      parsed.push(result.data);
      return;
    }
    invalid++;
    if (invalid <= MAX_REPORTED_INVALID_MESSAGES) {
      Object.assign(errors, toFieldErrors(result.error.issues, ["messages", offset + i]));
    }
  });
  if (invalid > 0) {
    if (invalid > MAX_REPORTED_INVALID_MESSAGES) {
      (errors.messages ??= []).push(`${invalid - MAX_REPORTED_INVALID_MESSAGES} more invalid message(s) not listed (${invalid} in all)`);
    }
    throw new ValidationError(what, errors);
  }
  return parsed;
}
