/** The resource classes the package root exports: one line per kind that has a TypeScript class. */
export { WebhookEndpoint, type WebhookEndpointArgs } from "./kinds/webhook-endpoint/resource";
export { MessageBatch, type MessageBatchArgs } from "./kinds/message-batch/resource";
