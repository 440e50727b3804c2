/**
 * The service's operations as data, each defined once: method, path, how the request body
 * is encoded, and the schemas of the request and the response. The client sends every
 * operation through one method body; the emulator registers one handler per operation
 * from this table. Adding an operation (a retrieve, say) is a row here, a client method
 * of one line, and an emulator handler.
 */
import type { z } from "zod";
import { MESSAGE_BATCHES_PATH, WEBHOOK_ENDPOINTS_PATH } from "./http";
import { MessageBatchRequest, MessageBatchResult } from "./message-batch";
import { WebhookEndpointCreate, WebhookEndpointObject } from "./webhook-endpoint";

/** One operation of the service's API. */
export interface Operation {
  readonly method: "GET" | "POST";
  /** Path template under the base URL; `{name}` stands for one path segment. */
  readonly path: string;
  /**
   * How the request body travels: `json`, `form` (`application/x-www-form-urlencoded`;
   * arrays as repeated `name[]` fields), or `none`.
   */
  readonly encoding: "json" | "form" | "none";
  readonly request: z.ZodType;
  readonly response: z.ZodType;
  /** The spec does not show this answer: an empty 2xx body reads as `{}`. */
  readonly emptyResponseAsObject?: boolean;
}

export const OPERATIONS = {
  /** Create a webhook endpoint (spec §4.2). */
  createWebhookEndpoint: {
    method: "POST",
    path: WEBHOOK_ENDPOINTS_PATH,
    encoding: "form",
    request: WebhookEndpointCreate,
    response: WebhookEndpointObject,
  },
  /** Send a batch of at most 1,000 messages (spec §4.1). */
  sendMessageBatch: {
    method: "POST",
    path: MESSAGE_BATCHES_PATH,
    encoding: "json",
    request: MessageBatchRequest,
    response: MessageBatchResult,
    emptyResponseAsObject: true,
  },
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;
