import type { z } from "zod";
import { ValidationError } from "../errors/messaging-error";
import { formatPath, toFieldErrors, type FieldErrors } from "../schemas/field-errors";
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
 * Where an item sits in the caller's input, as error keys name it: a path the item's field
 * paths continue (`["messages", 3]` → `messages[3].tos[0]`), or a label put before them
 * (`"line 4"` → `line 4: tos[0]`, `line 4: (root)`).
 */
export type ItemLocation = readonly PropertyKey[] | string;

/** How {@link validateMessageList} names items and reports them. */
export interface MessageListOptions {
  /** Names the input in the error message, e.g. `"messages"`. */
  readonly what: string;
  /** Where item `index` is. Called only for invalid items. */
  readonly locate: (index: number) => ItemLocation;
  /** Key of the field error that counts the invalid messages not listed, e.g. `"messages"`. */
  readonly overflowKey: string;
  /**
   * Why item `index` could not be read at all (e.g. a line of a file that is not JSON), or
   * undefined when it was read. Such an item counts as invalid and its reason is listed
   * under its location as is. Default: every item was read.
   */
  readonly unreadable?: (index: number) => string | undefined;
}

/**
 * The one "validate each message, list at most {@link MAX_REPORTED_INVALID_MESSAGES}" loop:
 * validates every item with the `Message` schema and returns the messages, or throws a
 * {@link ValidationError} listing the field errors of the first
 * {@link MAX_REPORTED_INVALID_MESSAGES} invalid items (named by `locate`) and counting the
 * rest under `overflowKey`.
 */
export function validateMessageList(items: readonly unknown[], options: MessageListOptions): Message[] {
  const parsed: Message[] = [];
  const errors: FieldErrors = {};
  let invalid = 0;
  // Counts every invalid item; lists the first ones (the location is worked out only for those).
  const report = (index: number, itemErrors: (location: ItemLocation) => FieldErrors) => {
    invalid++;
    if (invalid <= MAX_REPORTED_INVALID_MESSAGES) Object.assign(errors, itemErrors(options.locate(index)));
  };
  items.forEach((item, i) => {
    const reason = options.unreadable?.(i);
    if (reason !== undefined) {
      report(i, (location) => ({ [typeof location === "string" ? location : formatPath(location)]: [reason] }));
      return;
    }
    const result = Message.safeParse(item);
    if (result.success) parsed.push(result.data);
    else report(i, (location) => locatedFieldErrors(location, result.error.issues));
  });
  if (invalid > 0) {
    if (invalid > MAX_REPORTED_INVALID_MESSAGES) {
      (errors[options.overflowKey] ??= []).push(
        `${invalid - MAX_REPORTED_INVALID_MESSAGES} more invalid message(s) not listed (${invalid} in all)`,
      );
    }
    throw new ValidationError(options.what, errors);
  }
  return parsed;
}

function locatedFieldErrors(location: ItemLocation, issues: ReadonlyArray<z.core.$ZodIssue>): FieldErrors {
  if (typeof location !== "string") return toFieldErrors(issues, location);
  return Object.fromEntries(Object.entries(toFieldErrors(issues)).map(([field, reasons]) => [`${location}: ${field}`, reasons]));
}

/**
 * Validates a run of messages that starts at position `offset` of the caller's whole input,
 * so errors name the position there (`messages[1523].tos[0]`); see {@link validateMessageList}.
 */
export function parseMessages(items: readonly unknown[], offset: number, what = "messages"): Message[] {
  return validateMessageList(items, { what, locate: (i) => ["messages", offset + i], overflowKey: "messages" });
}
