/** What the emulator keeps: endpoints, events, deliveries and batches, bounded by count and by bytes. */
export { randomId } from "./ids";
export { findVerbatimMessages, verbatimMessagesText, type VerbatimMessages } from "./messages-text";
export {
  DEFAULT_MAX_ENDPOINTS,
  DEFAULT_MAX_STORED_MESSAGES,
  EmulatorStore,
  readBatch,
  serializeBatch,
  type StorageTotals,
  type StoredBatch,
} from "./store";
export { DEFAULT_MAX_STORED_BYTES } from "./stored-bytes";
export { StoredText } from "./stored-text";
