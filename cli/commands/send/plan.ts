import { createHash, type Hash } from "node:crypto";
import { ValidationError } from "../../../errors";
import { InvalidMessages } from "../../../schemas";
import type { Message } from "../../../schemas/types";
import { CallKey, type CallKeyScope, type PlannedCall } from "../../../message-file/identity";
import { checkedValue } from "../../../message-file/checked-entry";
import { readEntries, type FileFormat } from "../../../message-file";

/** What the first pass decided. */
export interface SendPlan {
  /** Messages in the file. */
  readonly messages: number;
  /** Of them, already sent (or in flight, to be finished) by earlier runs: not sent again. */
  readonly skipped: number;
  /** Positions (from 0) of the skipped messages. */
  readonly skip: Positions;
  /** The calls to make, in order: the messages not skipped, `batchSize` a call. */
  readonly calls: PlannedCall[];
  /** Sent messages (identity → copies) that are no longer in the file: changed or removed since. */
  readonly missing: Map<string, number>;
}

/** What the first pass reads a file against. */
export interface PlanInput {
  readonly file: string;
  readonly format: FileFormat;
  readonly batchSize: number;
  readonly keyScope: CallKeyScope;
  /** A message's identity, as the journal writes it. */
  readonly messageId: (message: unknown) => string;
  /** Messages already sent or in flight: identity → copies. Empty for a first run. */
  readonly sent: ReadonlyMap<string, number>;
  /** Stops the read when it returns true (a signal arrived). */
  readonly stopped: () => boolean;
}

/**
 * Pass 1: every message checked, and the run planned. A message counts as sent while the
 * journal holds more copies of its identity than the file has shown so far (so the second of
 * two identical lines is sent when only one was); every other message goes into the calls,
 * in file order. Call keys come from the messages' positions and texts ({@link CallKey}), so
 * the same file sent again without a journal makes the same calls under the same keys.
 * @returns the plan, the problems found (nothing may be sent), or "stopped"
 */
export async function planSend(input: PlanInput): Promise<SendPlan | { invalid: ValidationError } | "stopped"> {
  const invalid = new InvalidMessages("(file)");
  const unmatched = new Map(input.sent);
  const skip = new Positions();
  const calls: PlannedCall[] = [];
  let call = new CallKey(input.keyScope);
  let ordinal = 0;
  let skipped = 0;
  for await (const entries of readEntries(input.file, input.format)) {
    if (input.stopped()) return "stopped";
    for (const entry of entries) {
      const value = checkedValue(entry, invalid);
      if (value !== undefined && unmatched.size > 0) {
        const id = input.messageId(value);
        const copies = unmatched.get(id) ?? 0;
        if (copies > 0) {
          if (copies === 1) unmatched.delete(id);
          else unmatched.set(id, copies - 1);
          skip.add(ordinal);
          skipped++;
          ordinal++;
          continue;
        }
      }
      call.add(ordinal, entry.source);
      ordinal++;
      if (call.count === input.batchSize) {
        calls.push(call.finish());
        call = new CallKey(input.keyScope);
      }
    }
  }
  if (call.count > 0) calls.push(call.finish());
  const errors = invalid.fieldErrors();
  if (errors) return { invalid: new ValidationError(`messages in ${input.file}`, errors) };
  return { messages: ordinal, skipped, skip, calls, missing: unmatched };
}

/**
 * Pass 2: the messages of the planned calls, not validated again. Each call's source text is
 * compared with the first pass's before its last message is handed over, so a file changed in
 * between stops the send before that call goes out.
 *
 * Each chunk's entries are let go before its first message is handed over: the consumer waits
 * on requests, so whatever stays reachable meanwhile lasts until a full GC.
 * @throws FileChanged when the file is not what the first pass read
 */
export async function* plannedMessages(
  input: Pick<PlanInput, "file" | "format" | "messageId">,
  plan: SendPlan,
  onMessage: (call: number, id: string, location: string) => void,
): AsyncGenerator<Message, void, undefined> {
  let sources: Hash = createHash("sha256");
  let ordinal = 0;
  let call = 0;
  let inCall = 0;
  for await (const entries of readEntries(input.file, input.format)) {
    const messages: Message[] = [];
    // Thrown once the messages before it are handed over, as if read one by one.
    let changed: FileChanged | undefined;
    for (const entry of entries) {
      if (entry.problem || ordinal >= plan.messages) {
        changed = new FileChanged(`${input.file} changed since it was checked (at ${entry.location})`);
        break;
      }
      if (plan.skip.has(ordinal++)) continue;
      const planned = plan.calls[call];
      sources.update(entry.source).update("\n");
      onMessage(call, input.messageId(entry.value), entry.location);
      if (++inCall === planned.count) {
        if (sources.digest("hex") !== planned.sourceDigest) {
          changed = new FileChanged(`${input.file} changed since it was checked (up to ${entry.location})`);
          break;
        }
        sources = createHash("sha256");
        call++;
        inCall = 0;
      }
      messages.push(entry.value as Message);
    }
    entries.length = 0;
    yield* messages;
    if (changed) throw changed;
  }
  if (ordinal !== plan.messages) throw new FileChanged(`${input.file} changed since it was checked (it now holds fewer messages)`);
}

/** The file's content is not what the first pass checked. */
export class FileChanged extends Error {}

/** A set of positions, one bit each: a million skipped messages take 125 KB. */
export class Positions {
  #bits = new Uint8Array(1024);

  add(position: number): void {
    const byte = position >>> 3;
    if (byte >= this.#bits.length) {
      const grown = new Uint8Array(Math.max(this.#bits.length * 2, byte + 1));
      grown.set(this.#bits);
      this.#bits = grown;
    }
    this.#bits[byte] |= 1 << (position & 7);
  }

  has(position: number): boolean {
    const byte = position >>> 3;
    return byte < this.#bits.length && (this.#bits[byte] & (1 << (position & 7))) !== 0;
  }
}
