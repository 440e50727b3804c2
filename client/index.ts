/**
 * `pulumi-messaging/client`: the typed HTTP client of the messaging service, its error
 * classes and the wire format's plain types. Needs no `@pulumi/pulumi`. The retry maths
 * (`retry.ts`), form encoding (`form.ts`) and chunking (`chunks.ts`) are internal modules.
 * The zod schemas themselves are in `pulumi-messaging/schemas`.
 */
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
