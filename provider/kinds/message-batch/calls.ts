/**
 * The limits of one call, and the cut of batches part-sent by earlier releases (`call-plan.ts` `positionScheme`): in order,
 * at most 1,000 messages and {@link CALL_MAX_BYTES} a call. Their call `i` is sent under key `<prefix>-<i>`, so this cut is frozen
 * (golden tests pin it). A batch from a release that cut by count alone gets the same cut: every call the service accepted fit
 * under the byte limit.
 */
import { jsonByteLength } from "../../../schemas/json-size";
import { MAX_REQUEST_BODY_BYTES } from "../../../schemas/http";
import { envelopeBytes, tooLargeForOneCall } from "../../../schemas/one-call";
import { MAX_MESSAGES_PER_BATCH } from "../../../schemas";

export const CALL_MAX_BYTES = MAX_REQUEST_BODY_BYTES;

/** The rule one message at a time, for a stream. */
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

export function oversizedMessages(stream: string, messages: readonly unknown[]): Array<{ index: number; reason: string }> {
  return messages.flatMap((message, index) => {
    const reason = tooLargeForOneCall(message, { stream });
    return reason === undefined ? [] : [{ index, reason: `${reason}: shorten it or split it` }];
  });
}
