/**
 * The typed HTTP client of the messaging service. The retry maths (`retry.ts`), form
 * encoding (`form.ts`) and chunking (`chunks.ts`) are internal modules, importable by path.
 */
export { MessagingClient, type RequestOptions } from "./messaging-client";
export {
  DEFAULT_API_VERSION, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, type MessagingClientOptions,
} from "./options";
export {
  DEFAULT_SEND_CONCURRENCY, MAX_SEND_CONCURRENCY,
  type SendMessagesOptions, type SendMessagesResult, type SendProgress,
} from "./send-messages";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";
export { PACKAGE_VERSION } from "./version";
