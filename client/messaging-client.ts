import type { Agent as UndiciAgent } from "undici";
import { z } from "zod";
import { ConfigurationError, type RequestInfo } from "../errors/messaging-error";
import { FORM_CONTENT_TYPE, IDEMPOTENT_REPLAYED_HEADER, JSON_CONTENT_TYPE, VERSION_HEADER } from "../schemas/http";
import { IdempotencyKey } from "../schemas/idempotency-key";
import { OPERATIONS, operationPath, type Operation } from "../schemas/operations";
import type { Message, MessageBatchRequest, MessageBatchResult, WebhookEndpointCreateInput, WebhookEndpointObject } from "../schemas/types";
import { encodeForm } from "./form";
import { sendRequest, type HttpConfig, type RetryNotice } from "./http";
import { newIdempotencyKey } from "./idempotency";
import { IDENTITY_KEY, IdentityKey } from "./identity-key";
import { resolveClientOptions, type MessagingClientOptions } from "./options";
import { createRedactor } from "./redact";
import { parseResponseBody } from "./response";
import { SEND_PLANNED, sendInChunks, type PlannedSendHooks, type SendMessagesOptions, type SendMessagesResult } from "./send-messages";
import { parseInput } from "./validate";
import { USER_AGENT } from "./version";

// undici's Agent alone, the one class of undici the client makes: the package's index loads
// fetch, WebSocket, caches and mocks as well, megabytes of code and heap in every process
// that holds a client (`messaging send` among them) for nothing it uses. The same class as
// undici's `Agent` (test/client/undici-agent.test.ts checks).
const Agent = require("undici/lib/dispatcher/agent") as typeof UndiciAgent;
type Agent = UndiciAgent;

/** Per-call options. */
export interface RequestOptions {
  /**
   * The `Idempotency-Key` of this call: 1–255 visible ASCII characters. Default: a random
   * UUID. It is reused on every retry; pass your own to make a call safe to repeat across
   * processes (the service replays its first answer).
   */
  idempotencyKey?: string;
  /** Cancels the call (including waits between retries); it rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** The request headers and body of each encoding in `OPERATIONS`. */
const ENCODINGS: Readonly<Record<Operation["encoding"], { headers?: Record<string, string>; encode(body: unknown): string | undefined }>> =
  {
    json: { headers: { "content-type": JSON_CONTENT_TYPE }, encode: (body) => JSON.stringify(body) },
    form: { headers: { "content-type": FORM_CONTENT_TYPE }, encode: (body) => encodeForm(body as Record<string, unknown>) },
    none: { encode: () => undefined },
  };

const RequestOptionsSchema = z.object({
  idempotencyKey: IdempotencyKey.optional(),
  signal: z.custom<AbortSignal>((value) => value instanceof AbortSignal, { error: "expected an AbortSignal" }).optional(),
});

/**
 * Typed client of the messaging service: validates input with the package's schemas before
 * any request, sends it with HTTP Basic authentication, `X-Service-Version` and an
 * `Idempotency-Key` on every POST, retries transient failures (network errors, timeouts,
 * 408, 429, 5xx, and the 409 `idempotency_key_in_use` of a key whose first request is still
 * being processed) with exponential backoff, full jitter and `Retry-After`, and parses every
 * response with its schema.
 *
 * Errors come from one hierarchy (`errors/`): `ValidationError` before any request,
 * `ApiError` subclasses for non-2xx answers, `TimeoutError`, `ConnectionError`,
 * `ResponseSchemaError`, `PartialSendError`. None carries the API key.
 *
 * Call {@link MessagingClient.close} when done, to close the connections of the client's
 * own agent.
 */
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

  /**
   * Internal (the `MessageBatch` runtime and `messaging send`): the key their identities are
   * made with, derived from this client's API key. Not part of the package's API.
   */
  get [IDENTITY_KEY](): IdentityKey {
    return this.#identityKey;
  }

  /**
   * Creates a webhook endpoint (`POST /v1/webhooks/endpoints`, form-encoded): `url`,
   * `format` (default `basic`), one `events[]` per event type, and `description` when given.
   * @returns the endpoint object: `id` and the signing `secret` always; the other fields of
   *   the object as the service sent them (each may be missing or null)
   * @throws ValidationError before any request if the input is invalid
   * @throws ResponseSchemaError if the answer lacks an `id` or a `secret` (with `resourceId`
   *   when it carried an id: the endpoint exists)
   */
  async createWebhookEndpoint(input: WebhookEndpointCreateInput, options?: RequestOptions): Promise<WebhookEndpointObject> {
    return this.#call(OPERATIONS.createWebhookEndpoint, input, options);
  }

  async sendMessageBatch(request: MessageBatchRequest, options?: RequestOptions): Promise<MessageBatchResult> {
    return this.#call(OPERATIONS.sendMessageBatch, request, options);
  }

  async sendMessages(messages: Iterable<Message> | AsyncIterable<Message>, options: SendMessagesOptions): Promise<SendMessagesResult> {
    return this[SEND_PLANNED](messages, options, {});
  }

  /**
   * Internal (the `messaging send` command): {@link MessagingClient.sendMessages} with hooks
   * that choose each chunk's key and see each chunk before it is sent. Not part of the
   * package's API: the symbol is not exported from it.
   */
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
      (batch, idempotencyKey, signal, onRetry, onAnswer) =>
        this.#send(operation, operation.path, batch, idempotencyKey, signal, onRetry, onAnswer) as Promise<MessageBatchResult>,
      hooks,
    );
  }

  /**
   * Closes the client's own agent and its connections, waiting for requests in flight. A
   * dispatcher passed in the options is left open (its owner closes it). Calling it again
   * does nothing; a closed client rejects new calls with `ConfigurationError`.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#ownedAgent?.close();
  }

  /**
   * One operation as a caller asks for it: the caller options, the path parameters and the
   * request parsed with the row's schemas (a `ValidationError` before any request), a key
   * made when none is given (a POST's only: a GET is safe to repeat).
   */
  async #call<O extends Operation>(
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

  /**
   * The one body that sends an operation of `OPERATIONS`, its path filled and its body
   * parsed already: encode, send (with retries), parse the answer.
   */
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
      body: encoding.encode(body),
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
