import type { Message } from "../../schemas";
import type { BatchTotals, RecordedBatch } from "../records";
import { RECORD_OVERHEAD_BYTES, stringBytes } from "./stored-bytes";
import type { StoredText } from "./stored-text";

/** Its messages serialized once, kept off the JavaScript heap (`stored-text.ts`); a listing writes them out as is. */
export interface StoredBatch {
  readonly id: string;
  readonly stream: string;
  readonly created: string;
  readonly messageCount: number;
  /** `JSON.stringify` of the validated messages. */
  readonly messagesJson: StoredText;
}

/** Without parsing the messages. */
export function serializeBatch(batch: StoredBatch): string {
  return `{"id":${JSON.stringify(batch.id)},"stream":${JSON.stringify(batch.stream)},"created":${JSON.stringify(batch.created)},"messages":${batch.messagesJson.toString()}}`;
}

export function readBatch(batch: StoredBatch): RecordedBatch {
  return { id: batch.id, stream: batch.stream, created: batch.created, messages: JSON.parse(batch.messagesJson.toString()) as Message[] };
}

interface Entry {
  /** Among every batch ever accepted, from 0. */
  readonly seq: number;
  readonly batch: StoredBatch;
  readonly bytes: number;
}

export function batchBytes(batch: StoredBatch): number {
  return (
    stringBytes(batch.messagesJson) + stringBytes(batch.id) + stringBytes(batch.stream) + stringBytes(batch.created) + RECORD_OVERHEAD_BYTES
  );
}

/**
 * At most `maxMessages` messages, the oldest evicted first (a batch larger than the cap is
 * counted, then evicted at once). Eviction is O(1) (a moving head, compacted now and then),
 * and a page starts by an id lookup, so neither grows with what was stored.
 */
export class BatchStore {
  private entries: Entry[] = [];
  private head = 0;
  private readonly seqById = new Map<string, number>();
  private nextSeq = 0;
  private stored = 0;
  private acceptedMessages = 0;
  private evicted = 0;
  private bytes = 0;

  /** @param maxMessages 0 keeps none (only the totals). */
  constructor(readonly maxMessages: number) {}

  add(batch: StoredBatch): void {
    const seq = this.nextSeq++;
    const bytes = batchBytes(batch);
    this.entries.push({ seq, batch, bytes });
    this.seqById.set(batch.id, seq);
    this.stored += batch.messageCount;
    this.bytes += bytes;
    this.acceptedMessages += batch.messageCount;
    while (this.stored > this.maxMessages && this.evictOldest());
  }

  get storedBytes(): number {
    return this.bytes;
  }

  evictOldest(): boolean {
    if (this.head >= this.entries.length) return false;
    const oldest = this.entries[this.head++];
    this.stored -= oldest.batch.messageCount;
    this.bytes -= oldest.bytes;
    this.seqById.delete(oldest.batch.id);
    this.evicted++;
    // The slot is cleared so the batch's text can be collected before the next compaction.
    (this.entries as Array<Entry | undefined>)[this.head - 1] = undefined;
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    return true;
  }

  totals(): BatchTotals {
    return {
      batches: this.nextSeq,
      messages: this.acceptedMessages,
      storedBatches: this.entries.length - this.head,
      storedMessages: this.stored,
      evictedBatches: this.evicted,
      storedBytes: this.bytes,
    };
  }

  has(id: string): boolean {
    return this.seqById.has(id);
  }

  /**
   * Looks each batch up as it goes: batches evicted while a page is being read are skipped,
   * never read from freed slots. Check `has(after)` first.
   */
  *page(after: string | undefined, limit = Infinity): Generator<StoredBatch> {
    let lastSeq = after === undefined ? -1 : (this.seqById.get(after) ?? -1);
    for (let count = 0; count < limit; count++) {
      const entry = this.entryAfter(lastSeq);
      if (entry === undefined) return;
      lastSeq = entry.seq;
      yield entry.batch;
    }
  }

  newest(count: number): StoredBatch[] {
    const out: StoredBatch[] = [];
    for (let i = this.entries.length - 1; i >= this.head && out.length < count; i--) out.push(this.entries[i].batch);
    return out;
  }

  // Sequence numbers of stored entries are consecutive, so this is arithmetic, not a search.
  private entryAfter(seq: number): Entry | undefined {
    if (this.head >= this.entries.length) return undefined;
    const first = this.entries[this.head].seq;
    const index = this.head + Math.max(0, seq + 1 - first);
    return this.entries[index];
  }
}
