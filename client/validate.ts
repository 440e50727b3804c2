import type { z } from "zod";
import { ValidationError } from "../errors/messaging-error";
import { addFieldError, formatPath, mergeFieldErrors, toFieldErrors, type FieldErrors, type IssueLike } from "../schemas/field-errors";
import { Message as MessageSchema } from "../schemas/message-batch";
import type { Message } from "../schemas/types";
import { isCertainlyValidMessage } from "./message-check";

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

/** The verdict on one message: the message to send, or the zod issues that reject it. */
export type MessageVerdict =
  { readonly ok: true; readonly message: Message } | { readonly ok: false; readonly issues: readonly IssueLike[] };

/**
 * Validates one message. The common valid message passes a precompiled check and is
 * returned as it is (no copy); anything else is judged by the zod `Message` schema, whose
 * output or issues are returned.
 */
export function checkMessage(value: unknown): MessageVerdict {
  if (isCertainlyValidMessage(value)) return { ok: true, message: value };
  const result = MessageSchema.safeParse(value);
  return result.success ? { ok: true, message: result.data } : { ok: false, issues: result.error.issues };
}

/**
 * Collects invalid messages as they are found, for one {@link ValidationError}: lists the
 * field errors of the first {@link MAX_REPORTED_INVALID_MESSAGES} and counts the rest. Works
 * on a stream: it holds at most that many entries, whatever the input's size.
 */
export class InvalidMessages {
  #errors: FieldErrors = {};
  #count = 0;

  /**
   * @param what names the input in the error message, e.g. `"messages"`
   * @param overflowKey key of the field error that counts the invalid messages not listed
   */
  constructor(
    private readonly what: string,
    private readonly overflowKey: string,
  ) {}

  /** Invalid messages seen so far. */
  get count(): number {
    return this.#count;
  }

  /** Records an invalid message at `location` with its zod issues. */
  addIssues(location: ItemLocation, issues: readonly IssueLike[]): void {
    this.#add(() => locatedFieldErrors(location, issues));
  }

  /** Records a message that could not be read at all (e.g. not JSON), with why. */
  addReason(location: ItemLocation, reason: string): void {
    this.#add(() => ({ [typeof location === "string" ? location : formatPath(location)]: [reason] }));
  }

  /** The error listing what was recorded, or undefined when every message was valid. */
  toError(): ValidationError | undefined {
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
    return new ValidationError(this.what, errors);
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
 * Validates a run of messages that starts at position `offset` of the caller's whole input,
 * so errors name the position there (`messages[1523].tos[0]`), and returns them: the same
 * array when every message passed as it is, else a copy holding the schema's outputs. A hole
 * in a sparse array is an invalid message. Throws a {@link ValidationError} (see
 * {@link InvalidMessages}) when any is invalid.
 */
export function parseMessages(items: readonly unknown[], offset: number, what = "messages"): Message[] {
  let parsed = items as Message[];
  const invalid = new InvalidMessages(what, "messages");
  for (let i = 0; i < items.length; i++) {
    if (!(i in items)) {
      invalid.addReason(["messages", offset + i], "missing: a hole in a sparse array");
      continue;
    }
    const item = items[i];
    const verdict = checkMessage(item);
    if (!verdict.ok) invalid.addIssues(["messages", offset + i], verdict.issues);
    else if (verdict.message !== item) {
      if (parsed === items) parsed = items.slice() as Message[];
      parsed[i] = verdict.message;
    }
  }
  const error = invalid.toError();
  if (error) throw error;
  return parsed;
}
