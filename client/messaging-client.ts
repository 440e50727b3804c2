import { Agent } from "undici";
import { z } from "zod";
import { ConfigurationError, type RequestInfo } from "../errors/messaging-error";
import {
  FORM_CONTENT_TYPE, JSON_CONTENT_TYPE, MESSAGE_BATCHES_PATH, VERSION_HEADER, WEBHOOK_ENDPOINTS_PATH,
} from "../schemas/http";
import { MessageBatchRequest as MessageBatchRequestSchema, MessageBatchResult as MessageBatchResultSchema } from "../schemas/message-batch";
import { IdempotencyKey } from "../schemas/idempotency-key";
import type { Message, MessageBatchRequest, MessageBatchResult, WebhookEndpointCreateInput, WebhookEndpointObject } from "../schemas/types";
import { WebhookEndpointCreate, WebhookEndpointObject as WebhookEndpointObjectSchema } from "../schemas/webhook-endpoint";
import { encodeWebhookEndpointForm } from "./form";
import { sendRequest, type HttpConfig, type RetryNotice } from "./http";
import { newIdempotencyKey } from "./idempotency";
import { resolveClientOptions, type MessagingClientOptions } from "./options";
import { createRedactor } from "./redact";
import { parseResponseBody } from "./response";
import { sendInChunks, type SendMessagesOptions, type SendMessagesResult } from "./send-messages";
import { parseInput } from "./validate";
import { USER_AGENT } from "./version";

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

const BATCH_HEADERS = { "content-type": JSON_CONTENT_TYPE } as const;

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
    const endpoint = parseInput(WebhookEndpointCreate, input, "webhook endpoint");
    const { idempotencyKey, signal } = this.#requestOptions(options);
    const info: RequestInfo = { method: "POST", path: WEBHOOK_ENDPOINTS_PATH, idempotencyKey };
    const response = await sendRequest(this.#http, {
      ...info,
      method: "POST",
      headers: { "content-type": FORM_CONTENT_TYPE },
      body: encodeWebhookEndpointForm(endpoint),
      signal,
    });
    return parseResponseBody(WebhookEndpointObjectSchema, response, info);
  }

  /**
   * Sends one batch (`POST /v1/message_batches`, JSON) of at most 1,000 messages. For more,
   * use {@link MessagingClient.sendMessages}.
   * @returns the batch result (its `id` when the service returns one)
   * @throws ValidationError before any request if the request is invalid (each bad field named, e.g. `messages[1].tos[0]`)
   */
  async sendMessageBatch(request: MessageBatchRequest, options?: RequestOptions): Promise<MessageBatchResult> {
    const batch = parseInput(MessageBatchRequestSchema, request, "message batch");
    const { idempotencyKey, signal } = this.#requestOptions(options);
    return this.#postBatch(batch, idempotencyKey, signal, undefined);
  }

  /**
   * Sends any number of messages as consecutive batches (default 1,000 messages each), chunk
   * `i` with idempotency key `${idempotencyKeyPrefix}-${i}`, so a re-run with the same prefix
   * sends nothing twice.
   *
   * An array is validated whole before anything is sent; other (async) iterables are read
   * lazily and each chunk is validated before it is sent. A failure once sending has started
   * rejects with `PartialSendError` (what was accepted, the first chunk that was not, the
   * cause); see `sendInChunks` for the details.
   */
  async sendMessages(messages: Iterable<Message> | AsyncIterable<Message>, options: SendMessagesOptions): Promise<SendMessagesResult> {
    this.#assertOpen();
    return sendInChunks(messages, options, (batch, idempotencyKey, signal, onRetry) => this.#postBatch(batch, idempotencyKey, signal, onRetry));
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

  async #postBatch(
    batch: MessageBatchRequest,
    idempotencyKey: string,
    signal: AbortSignal | undefined,
    onRetry: ((notice: RetryNotice) => void) | undefined,
  ): Promise<MessageBatchResult> {
    this.#assertOpen();
    const info: RequestInfo = { method: "POST", path: MESSAGE_BATCHES_PATH, idempotencyKey };
    const response = await sendRequest(this.#http, {
      ...info,
      method: "POST",
      headers: BATCH_HEADERS,
      body: JSON.stringify(batch),
      signal,
      onRetry,
    });
    // The spec does not show the batch answer: an empty 2xx is an accepted batch without an id.
    return parseResponseBody(MessageBatchResultSchema, response, info, { emptyAsObject: true });
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
