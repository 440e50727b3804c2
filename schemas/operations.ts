/**
 * The service's operations as data, each defined once: method, path template and its
 * parameters, how the request body is encoded, and the schemas of the request and the
 * response. The client sends every operation through one method body, which parses the path
 * parameters and the request with the row's schemas; the emulator registers one handler per
 * operation from this table. Adding an operation (a retrieve, say) is a row here, a client
 * method of one line, and an emulator handler (see `docs/architecture.md`).
 */
import { z } from "zod";
import { MessageBatchRequest, MessageBatchResult } from "./message-batch";
import { WebhookEndpointCreate, WebhookEndpointObject } from "./webhook-endpoint";

/** One operation of the service's API. */
export interface Operation {
  readonly method: "GET" | "POST";
  /** Path template under the base URL; `{name}` stands for one path segment, named in `params`. */
  readonly path: string;
  /** The path template's parameters (an object schema, `{}` for none), checked before any request. */
  readonly params: z.ZodType<Readonly<Record<string, string>>>;
  /**
   * How the request body travels: `json`, `form` (`application/x-www-form-urlencoded`;
   * arrays as repeated `name[]` fields), or `none`.
   */
  readonly encoding: "json" | "form" | "none";
  /** The request body's schema: the client sends its output, the emulator validates with it. */
  readonly request: z.ZodType;
  readonly response: z.ZodType;
  /** Names the request in a validation error: `Invalid <what>: …`. */
  readonly what: string;
  /** The spec does not show this answer: an empty 2xx body reads as `{}`. */
  readonly emptyResponseAsObject?: boolean;
}

/** The `params` of an operation whose path has none. */
const NO_PARAMS = z.strictObject({});

export const OPERATIONS = {
  /** Create a webhook endpoint (spec §4.2). */
  createWebhookEndpoint: {
    method: "POST",
    path: "/v1/webhooks/endpoints",
    params: NO_PARAMS,
    encoding: "form",
    request: WebhookEndpointCreate,
    response: WebhookEndpointObject,
    what: "webhook endpoint",
  },
  /** Send a batch of at most 1,000 messages (spec §4.1). */
  sendMessageBatch: {
    method: "POST",
    path: "/v1/message_batches",
    params: NO_PARAMS,
    encoding: "json",
    request: MessageBatchRequest,
    response: MessageBatchResult,
    what: "message batch",
    emptyResponseAsObject: true,
  },
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;

/**
 * The operation's path with its `{name}`s filled from `params` (each value percent-encoded,
 * so it stays one segment). A path without parameters is returned as it is.
 */
export function operationPath(operation: Operation, params: Readonly<Record<string, string>>): string {
  if (!operation.path.includes("{")) return operation.path;
  return operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(params[name] ?? ""));
}
