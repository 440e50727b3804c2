// The service's operations as data: the client sends every row through one method, the emulator registers a handler per row.
import { z } from "zod";
import { MessageBatchRequest, MessageBatchResult } from "./message-batch";
import { WebhookEndpointCreate, WebhookEndpointObject } from "./webhook-endpoint";

/** A query's parameters, each given at most once: the emulator parses with it, a client checks with it. */
export type QuerySchema = z.ZodObject<z.core.$ZodShape, z.core.$strict>;

/** One operation of an HTTP API: the service's (`OPERATIONS`) or the emulator's own (`EMULATOR_OPERATIONS`). */
export interface Operation {
  readonly method: "GET" | "POST";
  /** Path template under the base URL; `{name}` stands for one path segment, named in `params`. */
  readonly path: string;
  /** The path template's parameters (an object schema, `{}` for none), checked before any request. */
  readonly params: z.ZodType<Readonly<Record<string, string>>>;
  readonly query?: QuerySchema;
  /** `form` is `application/x-www-form-urlencoded`, arrays as repeated `name[]` fields; `none`, no body is read. */
  readonly encoding: "json" | "form" | "none";
  /** The request body's schema: the client sends its output, the emulator validates with it. */
  readonly request?: z.ZodType;
  readonly response: z.ZodType;
  /** The answer's headers that are read, by lower-case name. */
  readonly headers?: z.ZodType<Record<string, unknown>>;
  /** Names the request in a validation error: `Invalid <what>: …`. */
  readonly what: string;
  /** The spec does not show this answer: an empty 2xx body reads as `{}`. */
  readonly emptyResponseAsObject?: boolean;
}

export const NO_PARAMS = z.strictObject({});

export const OPERATIONS = {
  /**
   * Creates a webhook endpoint (spec §4.2). The answer always has `id` and `secret`; its other fields may be missing.
   * @throws ResponseSchemaError if the answer lacks an `id` or a `secret` (with `resourceId`
   *   when it carried an id: the endpoint exists)
   */
  createWebhookEndpoint: {
    method: "POST",
    path: "/v1/webhooks/endpoints",
    params: NO_PARAMS,
    encoding: "form",
    request: WebhookEndpointCreate,
    response: WebhookEndpointObject,
    what: "webhook endpoint",
  },
  /** Sends one batch of at most 1,000 messages (spec §4.1); `sendMessages` sends any number, in chunks. */
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

/** The operation's path with its `{name}`s filled from `params`, each percent-encoded so it stays one segment. */
export function operationPath(operation: Operation, params: Readonly<Record<string, string>>): string {
  if (!operation.path.includes("{")) return operation.path;
  return operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(params[name] ?? ""));
}
