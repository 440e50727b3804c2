/**
 * How a batch's messages are cut into calls: in order, as many a call as fit in at most 1,000
 * messages and at most {@link CALL_MAX_BYTES} of JSON body. Call `i` is sent under the key
 * `<prefix>-<i>`, so the cut is part of a batch's identity: frozen, and pinned by golden
 * tests (test/provider/kinds/message-batch/calls.test.ts). A batch recorded by a release that cut by
 * count alone gets the same cut from this rule: every call the service had accepted fit under
 * the byte limit, and so fits here too (a call refused as too large was never taken).
 */
import { jsonByteLength } from "../../../schemas/json-size";
import { MAX_REQUEST_BODY_BYTES } from "../../../schemas/http";
import { envelopeBytes, tooLargeForOneCall } from "../../../schemas/one-call";
import { MAX_MESSAGES_PER_BATCH } from "../../../schemas";
import type { Chunk } from "../../../client/chunks";

/** Largest JSON body of one call: the service's request limit (the emulator's 413 above it). */
export const CALL_MAX_BYTES = MAX_REQUEST_BODY_BYTES;

/**
 * The number of messages in each call, in order (they add up to `messages.length`). A message
 * too large for a call of its own still gets one: `check` refuses such a batch first
 * ({@link oversizedMessages}).
 */
export function callSizes(stream: string, messages: readonly unknown[]): number[] {
  const cut = new CallCut(stream);
  const sizes: number[] = [];
  let count = 0;
  for (const message of messages) {
    if (cut.startsCall(message) && count > 0) {
      sizes.push(count);
      count = 0;
    }
    count++;
  }
  if (count > 0) sizes.push(count);
  return sizes;
}

/**
 * The rule applied one message at a time, for messages read as a stream (a file): tells, for
 * each next message, whether it opens a new call. Gives the same cut as {@link callSizes}.
 */
export class CallCut {
  readonly #envelope: number;
  #count = 0;
  #bytes: number;

  constructor(stream: string) {
    this.#envelope = envelopeBytes(stream);
    this.#bytes = this.#envelope;
  }

  /** Adds `message`; true when it is the first of a call (the first message always is). */
  startsCall(message: unknown): boolean {
    const size = jsonByteLength(message);
    // A comma before every message but a call's first.
    const starts = this.#count === 0 || this.#count === MAX_MESSAGES_PER_BATCH || this.#bytes + 1 + size > CALL_MAX_BYTES;
    if (starts) {
      this.#count = 0;
      this.#bytes = this.#envelope;
    }
    this.#bytes += (this.#count > 0 ? 1 : 0) + size;
    this.#count++;
    return starts;
  }
}

/** `messages` cut into calls by the rule, read lazily: one call's messages are held at a time. */
export async function* cutIntoCalls<T>(stream: string, messages: AsyncIterable<T>): AsyncGenerator<Chunk<T>, void, undefined> {
  const cut = new CallCut(stream);
  let items: T[] = [];
  let index = 0;
  let offset = 0;
  for await (const message of messages) {
    if (cut.startsCall(message) && items.length > 0) {
      yield { index: index++, offset, items };
      offset += items.length;
      items = [];
    }
    items.push(message);
  }
  if (items.length > 0) yield { index, offset, items };
}

/** The positions of messages that could not be sent even in a call of their own, and why. */
export function oversizedMessages(stream: string, messages: readonly unknown[]): Array<{ index: number; reason: string }> {
  return messages.flatMap((message, index) => {
    const reason = tooLargeForOneCall(message, { stream });
    return reason === undefined ? [] : [{ index, reason: `${reason}: shorten it or split it` }];
  });
}
