import type { Agent as UndiciAgent } from "undici";
import { z } from "zod";
import { ConfigurationError, type RequestInfo } from "../errors/messaging-error";
import { FORM_CONTENT_TYPE, IDEMPOTENT_REPLAYED_HEADER, JSON_CONTENT_TYPE, VERSION_HEADER } from "../schemas/http";
import { OPERATIONS, operationPath, type Operation } from "../schemas/operations";
import type { Message, MessageBatchResult } from "../schemas/types";
import type { OperationMethods } from "./operation-methods.generated";
import { formFieldsOf } from "../schemas/form-fields";
import { EncodedJson } from "./encoded-json";
import { encodeForm } from "./form";
import { sendRequest, type HttpConfig, type RetryNotice } from "./http";
import { newIdempotencyKey } from "./idempotency";
import { IDENTITY_KEY, IdentityKey } from "./identity-key";
import { resolveClientOptions, type MessagingClientOptions } from "./options";
import { createRedactor } from "./redact";
import { parseResponseBody } from "./response";
import { SEND_PLANNED, sendInChunks, type PlannedSendHooks, type SendMessagesOptions, type SendMessagesResult } from "./send-messages";
import type { RequestOptions } from "./request-options";
import { parseInput } from "./validate";
import { USER_AGENT } from "./version";
import { IdempotencyKey } from "../schemas/idempotency-key";

// undici's Agent module alone: the package's index also loads fetch, WebSocket, caches and
// mocks, which the client never uses. test/client/undici-agent.test.ts checks it is the same class.
const Agent = require("undici/lib/dispatcher/agent") as typeof UndiciAgent;
type Agent = UndiciAgent;

type Encoding = { headers?: Record<string, string>; encode(body: unknown, operation: Operation): string | undefined };
const ENCODINGS: Readonly<Record<Operation["encoding"], Encoding>> = {
  json: {
    headers: { "content-type": JSON_CONTENT_TYPE },
    encode: (body) => (body instanceof EncodedJson ? body.text : JSON.stringify(body)),
  },
  form: {
    headers: { "content-type": FORM_CONTENT_TYPE },
    // Each field under its wire name (its `.meta()`), in the schema's order.
    encode: (body, operation) => encodeForm(body as Record<string, unknown>, formFieldsOf(operation.request as z.ZodObject)),
  },
  none: { encode: () => undefined },
};

export type { RequestOptions } from "./request-options";

const RequestOptionsSchema = z.object({
  idempotencyKey: IdempotencyKey.optional(),
  signal: z.custom<AbortSignal>((value) => value instanceof AbortSignal, { error: "expected an AbortSignal" }).optional(),
});

// The service's operations are methods of the client: declared here, added from the table below (`static`).
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface MessagingClient extends OperationMethods {}

/**
 * Typed client of the messaging service. Input is validated before any request, every POST
 * carries an `Idempotency-Key`, transient failures are retried with backoff, and every answer
 * is parsed with its schema. Errors come from `errors/` and never carry the API key.
 * Call {@link MessagingClient.close} when done.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class MessagingClient {
  // Private fields: the credentials do not show in console.log / util.inspect / JSON.
  readonly #http: HttpConfig;
  readonly #ownedAgent: Agent | undefined;
  readonly #identityKey: IdentityKey;
  #closed = false;

  /** Checks the options (throws `ConfigurationError` naming the one at fault) and sets up the connection pool. */
  constructor(options: MessagingClientOptions) {
    const resolved = resolveClientOptions(options);
    this.#ownedAgent =
      resolved.dispatcher === undefined
        ? new Agent({ headersTimeout: resolved.timeoutMs, bodyTimeout: resolved.timeoutMs, connect: { timeout: resolved.timeoutMs } })
        : undefined;
    this.#http = {
      dispatcher: resolved.dispatcher ?? (this.#ownedAgent as Agent),
      origin: resolved.origin,
      pathPrefix: resolved.pathPrefix,
      headers: {
        authorization: resolved.authorization,
        [VERSION_HEADER]: resolved.apiVersion,
        accept: JSON_CONTENT_TYPE,
        "user-agent": USER_AGENT,
      },
      timeoutMs: resolved.timeoutMs,
      maxRetries: resolved.maxRetries,
      retryPolicy: resolved.retryPolicy,
      redact: createRedactor(options.apiKey),
    };
    this.#identityKey = IdentityKey.fromApiKey(options.apiKey);
  }

  /** Internal (`MessageBatch`, `messaging send`): the identity key derived from the API key. */
  get [IDENTITY_KEY](): IdentityKey {
    return this.#identityKey;
  }

  // One method per operation of the table, named as its row (their types: `OperationMethods`, generated from the same table).
  static {
    for (const [name, operation] of Object.entries(OPERATIONS) as Array<[string, Operation & { readonly request: z.ZodType }]>) {
      const paramKeys = Object.keys((operation.params as z.ZodType as z.ZodObject).shape);
      const method = {
        async [name](this: MessagingClient, request: Record<string, unknown>, options?: RequestOptions): Promise<unknown> {
          // The path's parameters come in the request beside the body's fields.
          const params = Object.fromEntries(paramKeys.map((key) => [key, request?.[key]]));
          const body =
            paramKeys.length === 0
              ? request
              : Object.fromEntries(Object.entries(request ?? {}).filter(([key]) => !paramKeys.includes(key)));
          return this.#call(operation, body, options, params);
        },
      }[name];
      Object.defineProperty(MessagingClient.prototype, name, { value: method, writable: true, configurable: true });
    }
  }

  /**
   * Sends any number of messages as consecutive batches. An array is validated whole before
   * anything is sent; other iterables are read lazily, each chunk validated just before it goes.
   * @throws PartialSendError once any chunk has started and the send fails; it lists the
   *   accepted chunks and the key prefix, with which a re-run resends nothing twice
   */
  async sendMessages(messages: Iterable<Message> | AsyncIterable<Message>, options: SendMessagesOptions): Promise<SendMessagesResult> {
    return this[SEND_PLANNED](messages, options, {});
  }

  /** Internal (`messaging send`): {@link MessagingClient.sendMessages} with {@link PlannedSendHooks}. */
  async [SEND_PLANNED](
    messages: Iterable<Message> | AsyncIterable<Message>,
    options: SendMessagesOptions,
    hooks: PlannedSendHooks,
  ): Promise<SendMessagesResult> {
    this.#assertOpen();
    // Chunks are checked by sendInChunks already: they go straight to the operation.
    const operation = OPERATIONS.sendMessageBatch;
    return sendInChunks(
      messages,
      options,
      (batch, idempotencyKey, signal, onRetry, onAnswer) => {
        const body = hooks.encoded ? EncodedJson.batch(batch.stream, batch.messages as unknown as string[]) : batch;
        return this.#send(operation, operation.path, body, idempotencyKey, signal, onRetry, onAnswer) as Promise<MessageBatchResult>;
      },
      hooks,
    );
  }

  /**
   * Closes the client's own agent, waiting for requests in flight; a dispatcher passed in the
   * options is left open. A closed client rejects new calls with `ConfigurationError`.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#ownedAgent?.close();
  }

  /** Only a POST gets an idempotency key: a GET is safe to repeat. */
  async #call<O extends Operation & { readonly request: z.ZodType }>(
    operation: O,
    input: z.input<O["request"]>,
    options: RequestOptions | undefined,
    params?: z.input<O["params"]>,
  ): Promise<z.output<O["response"]>> {
    const body: unknown = parseInput(operation.request, input, operation.what);
    const path = operationPath(operation, parseInput(operation.params, params ?? {}, `${operation.what} path`));
    const { idempotencyKey, signal } = this.#requestOptions(options);
    return this.#send(operation, path, body, operation.method === "POST" ? idempotencyKey : undefined, signal, undefined);
  }

  async #send<O extends Operation>(
    operation: O,
    path: string,
    body: unknown,
    idempotencyKey: string | undefined,
    signal: AbortSignal | undefined,
    onRetry: ((notice: RetryNotice) => void) | undefined,
    onAnswer?: (answer: { readonly replayed: boolean }) => void,
  ): Promise<z.output<O["response"]>> {
    this.#assertOpen();
    const info: RequestInfo = { method: operation.method, path, idempotencyKey };
    const encoding = ENCODINGS[operation.encoding];
    const response = await sendRequest(this.#http, {
      ...info,
      method: operation.method,
      headers: encoding.headers,
      body: encoding.encode(body, operation),
      signal,
      onRetry,
    });
    const parsed = parseResponseBody(operation.response, response, info, {
      emptyAsObject: operation.emptyResponseAsObject === true,
    }) as z.output<O["response"]>;
    onAnswer?.({ replayed: String(response.headers[IDEMPOTENT_REPLAYED_HEADER] ?? "").toLowerCase() === "true" });
    return parsed;
  }

  #requestOptions(options: RequestOptions | undefined): { idempotencyKey: string; signal?: AbortSignal } {
    this.#assertOpen();
    const { idempotencyKey, signal } = parseInput(RequestOptionsSchema, options ?? {}, "request options");
    return { idempotencyKey: idempotencyKey ?? newIdempotencyKey(), signal };
  }

  #assertOpen(): void {
    if (this.#closed) throw new ConfigurationError("MessagingClient: the client is closed; create a new one");
  }
}
