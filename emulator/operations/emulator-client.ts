import { Agent, request, type Dispatcher } from "undici";
import type { z } from "zod";
import { errorFromResponse } from "../../errors/from-response";
import { ConfigurationError, ResponseSchemaError, ValidationError, type RequestInfo } from "../../errors/messaging-error";
import { toFieldErrors } from "../../schemas/field-errors";
import { JSON_CONTENT_TYPE, REQUEST_ID_HEADER } from "../../schemas/http";
import { DEFAULT_EMULATOR_API_KEY } from "../http";
import type { BatchTotals } from "../storage";
import { NO_PARAMS, operationPath, type Operation, type QuerySchema } from "../../schemas/operations";
import { EMULATOR_OPERATIONS, type EmulatorOperationName } from "./emulator-operations";

/** Options of {@link EmulatorClient}. */
export interface EmulatorClientOptions {
  /** The emulator's URL, e.g. `http://127.0.0.1:4010` (a trailing slash is ignored). */
  readonly baseUrl: string;
  /** The key it was started with. Default `sk_test_emulator`. */
  readonly apiKey?: string;
  /** Where requests go. Default: an agent of the client's own (closed by {@link EmulatorClient.close}), connect timeout 10 s. */
  readonly dispatcher?: Dispatcher;
}

type Row<N extends EmulatorOperationName> = (typeof EMULATOR_OPERATIONS)[N];

/** What one operation is called with: its path parameters, query and body, as its row's schemas take them. */
export type EmulatorCallInput<N extends EmulatorOperationName> = {
  readonly params?: z.input<Row<N>["params"]>;
  readonly query?: Row<N> extends { readonly query: QuerySchema } ? z.input<Row<N>["query"]> : never;
  readonly body?: Row<N> extends { readonly request: z.ZodType } ? z.input<Row<N>["request"]> : never;
  /** Cancels the call; it rejects with the signal's reason. */
  readonly signal?: AbortSignal;
};

/** An operation's answer: its body and its headers, parsed with its row's schemas. */
export interface EmulatorAnswer<N extends EmulatorOperationName> {
  readonly body: z.output<Row<N>["response"]>;
  readonly headers: Row<N> extends { readonly headers: z.ZodType } ? z.output<Row<N>["headers"]> : Record<string, never>;
}

/**
 * Typed client of the emulator's own routes (`/_emulator/…`, `EMULATOR_OPERATIONS`): what the
 * `trigger`, `listen` and `endpoints` commands and the tests use instead of building requests
 * by hand. Every input is checked with its row's schemas before the request (a
 * `ValidationError`), every answer parsed with them (a `ResponseSchemaError`); a non-2xx
 * answer is the `ApiError` subclass of its status, with the emulator's problem details.
 * It shares no code with `MessagingClient`: no retries, no idempotency keys, no version header.
 */
export class EmulatorClient {
  /** The emulator's URL, without a trailing slash. */
  readonly baseUrl: string;
  readonly #authorization: string;
  readonly #dispatcher: Dispatcher;
  readonly #ownedAgent: Agent | undefined;

  constructor(options: EmulatorClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    if (!/^https?:\/\/[^/]/.test(this.baseUrl)) throw new ConfigurationError(`EmulatorClient: baseUrl must be an http(s) URL`);
    this.#authorization = `Basic ${Buffer.from(`${options.apiKey ?? DEFAULT_EMULATOR_API_KEY}:`).toString("base64")}`;
    this.#ownedAgent = options.dispatcher === undefined ? new Agent({ connect: { timeout: 10_000 } }) : undefined;
    this.#dispatcher = options.dispatcher ?? (this.#ownedAgent as Agent);
  }

  /** The webhook endpoints created, in order. */
  async listEndpoints(signal?: AbortSignal): Promise<EmulatorAnswer<"listEndpoints">["body"]> {
    return (await this.call("listEndpoints", { signal })).body;
  }

  /**
   * The stored batches, oldest first: after the one with id `after`, at most `limit` (1–10,000);
   * with the totals since start (accepted batches and messages) and the bytes stored.
   */
  async listBatches(
    page: { readonly limit?: number; readonly after?: string } = {},
  ): Promise<{ batches: EmulatorAnswer<"listBatches">["body"]; totals: Pick<BatchTotals, "batches" | "messages" | "storedBytes"> }> {
    const query = {
      ...(page.limit !== undefined ? { limit: String(page.limit) } : {}),
      ...(page.after !== undefined ? { after: page.after } : {}),
    };
    const { body, headers } = await this.call("listBatches", { query });
    return {
      batches: body,
      totals: {
        batches: headers["x-emulator-batches-accepted"],
        messages: headers["x-emulator-messages-accepted"],
        storedBytes: headers["x-emulator-stored-bytes"],
      },
    };
  }

  /**
   * Every delivery attempt kept, in order: of one event when `event` is given; only those
   * recorded since an earlier listing when `after` is its `recorded`. `recorded`: the attempts
   * recorded since the emulator started.
   */
  async listDeliveries(
    filter: { readonly event?: string; readonly after?: number } = {},
    signal?: AbortSignal,
  ): Promise<{ attempts: EmulatorAnswer<"listDeliveries">["body"]; recorded: number }> {
    const query = {
      ...(filter.event !== undefined ? { event: filter.event } : {}),
      ...(filter.after !== undefined ? { after: String(filter.after) } : {}),
    };
    const { body, headers } = await this.call("listDeliveries", { query, signal });
    return { attempts: body, recorded: headers["x-emulator-attempts-recorded"] };
  }

  /** The events emitted (the most recent 1,000), oldest first, with their delivery ids. */
  async listEvents(): Promise<EmulatorAnswer<"listEvents">["body"]> {
    return (await this.call("listEvents")).body;
  }

  /**
   * Emits an event and answers once each delivery's first attempt is done: those attempts,
   * the event's id and the retry schedule (seconds; empty for none).
   */
  async emitEvent(
    event: EmulatorCallInput<"emitEvent">["body"],
  ): Promise<{ eventId: string; retrySchedule: number[]; attempts: EmulatorAnswer<"emitEvent">["body"] }> {
    const { body, headers } = await this.call("emitEvent", { body: event });
    return { eventId: headers["x-emulator-event-id"], retrySchedule: headers["x-emulator-retry-schedule"], attempts: body };
  }

  /** One more attempt of a delivery, now; its record. */
  async retryDelivery(id: string): Promise<EmulatorAnswer<"retryDelivery">["body"]> {
    return (await this.call("retryDelivery", { params: { id } })).body;
  }

  /** The fault settings in force, and what each /v1 request met since they were set. */
  async getFaults(): Promise<EmulatorAnswer<"getFaults">["body"]> {
    return (await this.call("getFaults")).body;
  }

  /** Sets fault injection for /v1 requests (a random mix or a script); the settings in force. */
  async setFaults(settings: EmulatorCallInput<"setFaults">["body"]): Promise<EmulatorAnswer<"setFaults">["body"]> {
    return (await this.call("setFaults", { body: settings })).body;
  }

  /** Closes the client's own agent (a dispatcher passed in is left open). */
  async close(): Promise<void> {
    await this.#ownedAgent?.close();
  }

  /** The one body that sends an operation of `EMULATOR_OPERATIONS`: check the input, send, parse the answer. */
  async call<N extends EmulatorOperationName>(name: N, input: EmulatorCallInput<N> = {}): Promise<EmulatorAnswer<N>> {
    const operation: Operation = EMULATOR_OPERATIONS[name];
    const params = checked(operation.params, input.params ?? {}, `${operation.what} path`);
    // The query is checked with the schema the emulator parses it with, and sent as given (text).
    const query = (input.query ?? {}) as Readonly<Record<string, string | undefined>>;
    checked(operation.query ?? NO_PARAMS, query, `${operation.what} query`);
    const body = operation.request === undefined ? undefined : JSON.stringify(checked(operation.request, input.body, operation.what));
    const search = new URLSearchParams(
      Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ).toString();
    const path = operationPath(operation, params) + (search ? `?${search}` : "");
    const response = await request(`${this.baseUrl}${path}`, {
      method: operation.method,
      dispatcher: this.#dispatcher,
      signal: input.signal,
      // A POST says JSON even without a body: the emulator's state-changing routes require it.
      headers: { authorization: this.#authorization, ...(operation.method === "POST" ? { "content-type": JSON_CONTENT_TYPE } : {}) },
      body,
    });
    const text = await response.body.text();
    const requestId = response.headers[REQUEST_ID_HEADER];
    const info: RequestInfo = { method: operation.method, path, requestId: typeof requestId === "string" ? requestId : undefined };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (response.statusCode < 200 || response.statusCode > 299) throw errorFromResponse(response.statusCode, info, json);
    const answer = operation.response.safeParse(json);
    if (!answer.success) throw new ResponseSchemaError(info, toFieldErrors(answer.error.issues));
    const headers = operation.headers?.safeParse(response.headers);
    if (headers !== undefined && !headers.success) throw new ResponseSchemaError(info, toFieldErrors(headers.error.issues, ["headers"]));
    return { body: answer.data, headers: headers?.data ?? {} } as EmulatorAnswer<N>;
  }
}

function checked<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(`emulator ${what}`, toFieldErrors(result.error.issues));
  return result.data;
}
