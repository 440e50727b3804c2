/**
 * How a batch's messages are cut into calls: in order, at most 1,000 messages and {@link CALL_MAX_BYTES} a call. Call `i` is sent
 * under key `<prefix>-<i>`, so the cut is frozen (golden tests pin it). A batch from a release that cut by count alone gets the
 * same cut: every call the service accepted fit under the byte limit.
 */
import { jsonByteLength } from "../../../schemas/json-size";
import { MAX_REQUEST_BODY_BYTES } from "../../../schemas/http";
import { envelopeBytes, tooLargeForOneCall } from "../../../schemas/one-call";
import { MAX_MESSAGES_PER_BATCH } from "../../../schemas";
import type { Chunk } from "../../../client/chunks";

export const CALL_MAX_BYTES = MAX_REQUEST_BODY_BYTES;

/** The number of messages in each call. A message too large for one call still gets one: `check` refuses such a batch first. */
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

/** The rule one message at a time, for a stream: gives the same cut as {@link callSizes}. */
export class CallCut {
  readonly #envelope: number;
  #count = 0;
  #bytes: number;

  constructor(stream: string) {
    this.#envelope = envelopeBytes(stream);
    this.#bytes = this.#envelope;
  }

  /** True when `message` opens a call. */
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

/** One call's messages are held at a time. */
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

export function oversizedMessages(stream: string, messages: readonly unknown[]): Array<{ index: number; reason: string }> {
  return messages.flatMap((message, index) => {
    const reason = tooLargeForOneCall(message, { stream });
    return reason === undefined ? [] : [{ index, reason: `${reason}: shorten it or split it` }];
  });
}
