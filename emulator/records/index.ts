/**
 * What the emulator records, as schemas and types: below both `storage/` (which keeps them) and `operations/` (which lists
 * them), so neither takes them from the other.
 */
export { type BatchTotals, type RecordedBatch, RecordedBatchSchema } from "./batch";
export { type AttemptOutcome, type Delivery, DeliverySchema } from "./delivery";
export { type RecordedEvent, RecordedEventSchema } from "./event";
export { type EmulatedWebhookEndpoint, EmulatedWebhookEndpointSchema } from "./webhook-endpoint";
