/**
 * The local emulator of the messaging service: a real HTTP server for the demo, the tests
 * and users' local development. It shares the wire schemas with the client, never the
 * client's code, so it can disagree with a buggy client.
 */
export { startEmulator, type Emulator, type EmulatorOptions } from "./server";
export { DEFAULT_EMULATOR_API_KEY } from "./auth";
export type { Delivery, RecordedBatch, RecordedWebhookEndpoint } from "./store";
export type { BatchResult, BatchMessageResult } from "./routes/message-batches";
export { FAULT_KINDS, type FaultKind } from "./faults";
export type { FaultSettings, FaultSettingsInput } from "./fault-injector";
