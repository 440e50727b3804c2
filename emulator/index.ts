/**
 * The local emulator of the messaging service: a real HTTP server for the demo, the tests
 * and users' local development. It shares the wire schemas with the client, never the
 * client's code, so it can disagree with a buggy client.
 */
export { startEmulator, type Emulator, type EmulatorOptions } from "./server";
export { DEFAULT_MAX_STORED_BYTES, DEFAULT_MAX_STORED_MESSAGES, type StorageTotals } from "./storage";
export type { AttemptOutcome, BatchTotals, Delivery, EmulatedWebhookEndpoint, RecordedBatch, RecordedEvent } from "./records";
export { DEFAULT_EMULATOR_API_KEY, MAX_BODY_BYTES } from "./http";
export type { BatchResult } from "./routes";
export { DEFAULT_DELIVERY_RETRY_SCHEDULE, classifyAttempt, parseRetrySchedule, retryDelaySeconds, type AttemptVerdict } from "./delivery";
export { FAULT_KINDS, type FaultKind, type FaultSettingsInput, type ScriptedFault } from "./faults";
export {
  EmulatorClient,
  EMULATOR_OPERATIONS,
  MAX_BATCH_PAGE,
  MAX_EVENT_BODY_BYTES,
  type EmulatorAnswer,
  type EmulatorCallInput,
  type EmulatorClientOptions,
  type EmulatorOperationName,
  type FaultSettings,
} from "./operations";
/**
 * @deprecated Use {@link EmulatedWebhookEndpoint}. The old name is also the provider's record of
 * a state it wrote, a different thing.
 */
export type RecordedWebhookEndpoint = import("./records").EmulatedWebhookEndpoint;
