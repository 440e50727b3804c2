// Every resource kind, one line each: the registry, the runtimes, the plugin's dispatch and its schema follow from this list.
export { webhookEndpoint } from "./webhook-endpoint";
export { messageBatch } from "./message-batch";
