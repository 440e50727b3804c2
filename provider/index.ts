export { WebhookEndpoint, type WebhookEndpointArgs } from "./kinds/webhook-endpoint/resource";
export { MessageBatch, type MessageBatchArgs } from "./kinds/message-batch/resource";
