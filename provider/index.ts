export { WebhookEndpoint, WebhookEndpointArgs } from "./webhook-endpoint";
export { MessageBatch, MessageBatchArgs } from "./message-batch";
