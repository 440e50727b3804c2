/** `pulumi-messaging/client`: the typed client, its errors and the wire types. Needs no `@pulumi/pulumi`. */
export { MessagingClient, type RequestOptions } from "./messaging-client";
export { DEFAULT_API_VERSION, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, type MessagingClientOptions } from "./options";
export {
  DEFAULT_SEND_CONCURRENCY,
  MAX_SEND_CONCURRENCY,
  type SendMessagesOptions,
  type SendMessagesResult,
  type SendProgress,
} from "./send-messages";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";
export { PACKAGE_VERSION } from "./version";
export { unreadableFields } from "./unreadable-fields";
export { MAX_MESSAGES_PER_BATCH } from "../schemas/types";
export type {
  Message,
  MessageTemplate,
  MessageBatchRequest,
  MessageBatchResult,
  WebhookEndpointCreateInput,
  WebhookEndpointObject,
  WebhookFormat,
  Problem,
} from "../schemas/types";
export type { FieldErrors } from "../schemas/field-errors";
export * from "../errors";
