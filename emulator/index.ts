/**
 * The local emulator of the messaging service: a real HTTP server for the demo, the tests
 * and users' local development. It shares the wire schemas with the client, never the
 * client's code, so it can disagree with a buggy client.
 */
export { startEmulator, type Emulator, type EmulatorOptions } from "./server";
export { DEFAULT_EMULATOR_API_KEY } from "./auth";
export { DEFAULT_MAX_STORED_MESSAGES } from "./store";
export { DEFAULT_MAX_STORED_BYTES } from "./stored-bytes";
export { MAX_BODY_BYTES } from "./body";
export { ENDPOINT_FIELD_LIMITS } from "./routes/webhook-endpoints";
export type { StorageTotals } from "./store";
export type { BatchTotals } from "./batch-store";
export type { BatchResult } from "./routes/message-batches";
export {
  DEFAULT_DELIVERY_RETRY_SCHEDULE,
  classifyAttempt,
  parseRetrySchedule,
  retryDelaySeconds,
  type AttemptVerdict,
} from "./delivery-policy";
export { FAULT_KINDS, type FaultKind } from "./faults";
export type { FaultSettingsInput, ScriptedFault } from "./fault-injector";
export { EmulatorClient, type EmulatorAnswer, type EmulatorCallInput, type EmulatorClientOptions } from "./emulator-client";
export {
  EMULATOR_OPERATIONS,
  MAX_BATCH_PAGE,
  MAX_EVENT_BODY_BYTES,
  type EmulatorOperation,
  type EmulatorOperationName,
  type AttemptOutcome,
  type Delivery,
  type FaultSettings,
  type RecordedBatch,
  type RecordedEvent,
  type RecordedWebhookEndpoint,
} from "./emulator-operations";
