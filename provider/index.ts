export { WebhookEndpoint, type WebhookEndpointArgs } from "./webhook-endpoint";
export { MessageBatch, type MessageBatchArgs } from "./message-batch";
