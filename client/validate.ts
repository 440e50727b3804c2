import type { z } from "zod";
import { ValidationError } from "../errors/messaging-error";
import { toFieldErrors } from "../schemas/field-errors";
import { checkMessage, InvalidMessages, isCertainlyValidMessage } from "../schemas/message-check";
import type { Message } from "../schemas/types";

/** @throws ValidationError naming every bad field (`messages[1].tos[0]: expected …`) */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(what, toFieldErrors(result.error.issues));
  return result.data;
}

/**
 * Errors name the position in the whole input (`offset` on). Returns the same array when
 * every message passed as it is, else a copy holding the schema's outputs.
 */
export function parseMessages(items: readonly unknown[], offset: number, what = "messages"): Message[] {
  let parsed = items as Message[];
  const invalid = new InvalidMessages("messages");
  for (let i = 0; i < items.length; i++) {
    if (!(i in items)) {
      invalid.addReason(["messages", offset + i], "missing: a hole in a sparse array");
      continue;
    }
    const item = items[i];
    // The common valid message, without a verdict object per message.
    if (isCertainlyValidMessage(item)) continue;
    const verdict = checkMessage(item);
    if (!verdict.ok) invalid.addIssues(["messages", offset + i], verdict.issues);
    else if (verdict.message !== item) {
      if (parsed === items) parsed = items.slice() as Message[];
      parsed[i] = verdict.message;
    }
  }
  const errors = invalid.fieldErrors();
  if (errors) throw new ValidationError(what, errors);
  return parsed;
}
