/**
 * pulumi-messaging: Pulumi resources, a typed client, receiver helpers and a local emulator
 * for the messaging service's webhook endpoints and message batches.
 */
export { WebhookEndpoint, MessageBatch } from "./provider";
export type { WebhookEndpointArgs, MessageBatchArgs } from "./provider";
export * from "./client";
export * from "./receiver";
export { startEmulator } from "./emulator";
export type { Emulator, EmulatorOptions } from "./emulator";
export * from "./errors";
export * from "./schemas";
