/**
 * Every resource kind, one line each: the registry (`registry.ts`) reads this list, and the
 * dynamic provider's runtimes, the plugin's dispatch and its schema follow from it.
 */
export { webhookEndpoint } from "./webhook-endpoint";
export { messageBatch } from "./message-batch";
