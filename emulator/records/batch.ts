import { z } from "zod";
import { Message } from "../../schemas";

export const RecordedBatchSchema = z.object({
  id: z.string(),
  stream: z.string(),
  /** The messages exactly as accepted. */
  messages: z.array(Message),
  created: z.string(),
});
/** A batch the emulator accepted. */
export type RecordedBatch = Readonly<z.output<typeof RecordedBatchSchema>>;

/** Totals since the emulator started, evicted batches included. */
export interface BatchTotals {
  readonly batches: number;
  readonly messages: number;
  /** Batches currently stored. */
  readonly storedBatches: number;
  readonly storedMessages: number;
  readonly evictedBatches: number;
  /** As the byte budget counts them. */
  readonly storedBytes: number;
}
