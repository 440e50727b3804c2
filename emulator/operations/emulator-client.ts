import { Agent, type Dispatcher } from "undici";
import type { z } from "zod";
import { NOT_JSON, sendRequest, type HttpConfig } from "../../client/http";
import { createRedactor } from "../../client/redact";
import { DEFAULT_RETRY_POLICY } from "../../client/retry";
import { ConfigurationError, ResponseSchemaError, ValidationError, type RequestInfo } from "../../errors/messaging-error";
import { toFieldErrors } from "../../schemas/field-errors";
import { JSON_CONTENT_TYPE } from "../../schemas/http";
import { NO_PARAMS, operationPath, type Operation, type QuerySchema } from "../../schemas/operations";
import { DEFAULT_EMULATOR_API_KEY } from "../http";
import type { BatchTotals } from "../records";
import { EMULATOR_OPERATIONS, type EmulatorOperationName } from "./emulator-operations";

// A call's bound, as undici's own defaults had it: `emitEvent` answers only once every delivery's first attempt is done.
const CALL_TIMEOUT_MS = 300_000;

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
 * It sends through `MessagingClient`'s HTTP core, without its retries, idempotency keys and version header.
 */
export class EmulatorClient {
  /** The emulator's URL, without a trailing slash. */
  readonly baseUrl: string;
  readonly #http: HttpConfig;
  readonly #ownedAgent: Agent | undefined;

  constructor(options: EmulatorClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    if (!/^https?:\/\/[^/]/.test(this.baseUrl)) throw new ConfigurationError(`EmulatorClient: baseUrl must be an http(s) URL`);
    const url = new URL(this.baseUrl);
    const apiKey = options.apiKey ?? DEFAULT_EMULATOR_API_KEY;
    this.#ownedAgent = options.dispatcher === undefined ? new Agent({ connect: { timeout: 10_000 } }) : undefined;
    // The service client's HTTP core, without its retries: the emulator's own calls are local and not all safe to repeat.
    this.#http = {
      dispatcher: options.dispatcher ?? (this.#ownedAgent as Agent),
      origin: url.origin,
      pathPrefix: url.pathname.replace(/\/+$/, ""),
      headers: { authorization: `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}` },
      timeoutMs: CALL_TIMEOUT_MS,
      maxRetries: 0,
      retryPolicy: DEFAULT_RETRY_POLICY,
      redact: createRedactor(apiKey),
    };
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
    const response = await sendRequest(this.#http, {
      method: operation.method,
      path,
      // A POST says JSON even without a body: the emulator's state-changing routes require it.
      headers: operation.method === "POST" ? { "content-type": JSON_CONTENT_TYPE } : undefined,
      body,
      signal: input.signal,
    });
    const info: RequestInfo = { method: operation.method, path, requestId: response.requestId };
    const json = response.json === NOT_JSON ? undefined : response.json;
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
