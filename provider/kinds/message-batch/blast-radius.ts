/**
 * What a send will do, said before any call (preview included), while it goes out and once it is done: how many messages, in how
 * many calls, to how many recipients, on which stream. A text message cannot be recalled, so a batch of 30,000 and one of 3 must
 * not look the same in a preview.
 */
import { canonicalJson } from "../../../schemas/canonical-json";
import { ContentCut } from "./call-plan";

/** The size of a send. */
export interface BatchSize {
  readonly messages: number;
  /** Absent from a file's read an earlier release recorded. */
  readonly calls?: number;
  readonly recipients?: number;
  /** False past {@link EXACT_RECIPIENTS} distinct numbers: `recipients` is then an estimate (HyperLogLog, about 1% off). */
  readonly recipientsExact: boolean;
}

/** Distinct numbers counted exactly up to this many, in bounded memory past it. */
export const EXACT_RECIPIENTS = 100_000;
const HLL_BITS = 14;
const HLL_REGISTERS = 1 << HLL_BITS;

// cyrb53: a fast 53-bit string hash, enough for counting (nothing here is an identity).
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Distinct recipients: a set up to {@link EXACT_RECIPIENTS}, then HyperLogLog's 16 KiB of registers. */
export class RecipientCount {
  #exact: Set<string> | undefined = new Set();
  #registers: Uint8Array | undefined;

  add(recipient: string): void {
    if (this.#exact) {
      this.#exact.add(recipient);
      if (this.#exact.size <= EXACT_RECIPIENTS) return;
      this.#registers = new Uint8Array(HLL_REGISTERS);
      for (const seen of this.#exact) this.#estimate(seen);
      this.#exact = undefined;
      return;
    }
    this.#estimate(recipient);
  }

  #estimate(recipient: string): void {
    const h = hash53(recipient);
    const index = h % HLL_REGISTERS;
    // The rank of the first 1 in the remaining 39 bits.
    let rest = Math.floor(h / HLL_REGISTERS);
    let rank = 1;
    while (rank <= 39 && rest % 2 === 0) {
      rank++;
      rest = Math.floor(rest / 2);
    }
    if (rank > this.#registers![index]) this.#registers![index] = rank;
  }

  get exact(): boolean {
    return this.#exact !== undefined;
  }

  get count(): number {
    if (this.#exact) return this.#exact.size;
    const registers = this.#registers!;
    let sum = 0;
    let zeros = 0;
    for (const rank of registers) {
      sum += 2 ** -rank;
      if (rank === 0) zeros++;
    }
    const alpha = 0.7213 / (1 + 1.079 / HLL_REGISTERS);
    const raw = (alpha * HLL_REGISTERS * HLL_REGISTERS) / sum;
    return Math.round(raw <= 2.5 * HLL_REGISTERS && zeros > 0 ? HLL_REGISTERS * Math.log(HLL_REGISTERS / zeros) : raw);
  }
}

/** Counts a batch's messages one at a time, as they are read: memory bounded whatever the count. */
export class BatchSizeCount {
  readonly #cut: ContentCut;
  readonly #recipients = new RecipientCount();
  #messages = 0;
  #calls = 0;

  constructor(stream: string) {
    this.#cut = new ContentCut(stream);
  }

  /** `text` is the message's canonical JSON, when the caller has it already. */
  add(message: unknown, text = canonicalJson(message)): void {
    this.#messages++;
    if (this.#cut.startsCall(message, text)) this.#calls++;
    const tos = (message as { tos?: unknown }).tos;
    if (Array.isArray(tos)) for (const to of tos) if (typeof to === "string") this.#recipients.add(to);
  }

  finish(): BatchSize {
    return { messages: this.#messages, calls: this.#calls, recipients: this.#recipients.count, recipientsExact: this.#recipients.exact };
  }
}

export function sizeOfMessages(stream: string, messages: readonly unknown[]): BatchSize {
  const count = new BatchSizeCount(stream);
  for (const message of messages) count.add(message);
  return count.finish();
}

const number = (n: number): string => n.toLocaleString("en-US");
const plural = (n: number, one: string, many = `${one}s`): string => `${number(n)} ${n === 1 ? one : many}`;

/** `30,000 messages (30 calls) to 28,511 recipients on transactional`, recipients said as estimated past the exact count. */
export function describeSize(size: BatchSize, stream: string): string {
  const calls = size.calls === undefined ? "" : ` (${plural(size.calls, "call")})`;
  const recipients =
    size.recipients === undefined
      ? ""
      : ` to ${size.recipientsExact ? "" : "about "}${plural(size.recipients, "recipient")}${size.recipientsExact ? "" : " (estimated)"}`;
  return `${plural(size.messages, "message")}${calls}${recipients} on ${stream}`;
}

/** The line a send's progress shows beside the resource. */
export function progressLine(sent: number, messages: number, calls: number, allCalls: number): string {
  return `sent ${number(sent)} of ${number(messages)} (${number(calls)} of ${plural(allCalls, "call")})`;
}

export { number as formatCount, plural };
