/**
 * Every hostile input the package has met, one row each, by the path it comes in on: the
 * emulator's HTTP API, `messaging send` files, the JSON reading rule itself, `parseEvent`,
 * the client, the client's redaction of what a server echoes, and the receiver's arguments.
 * A row expects either a clear error (the status, the code or the text naming the field,
 * line or argument) or exact preservation (what was read or recorded, in full). Run by
 * `hostile-input.test.ts`; there are no silent changes and no unclear errors to allow for.
 */
import type { CallOptions } from "./emulator";
import { endpointForm } from "./emulator";
import { MAX_JSON_DEPTH } from "../../schemas";
import { MemoryReplayGuard } from "../../receiver";

/** A row refused by the emulator: the problem's status and title, and the field `errors` names (or a path inside it). */
export interface RefusedRequest {
  readonly via: "emulator";
  readonly name: string;
  readonly path: string;
  readonly options: CallOptions;
  readonly status: number;
  readonly title: string;
  readonly field?: string;
}

/** A row the emulator accepts: `recorded` is what it must have kept, exactly. */
export interface KeptRequest {
  readonly via: "emulator";
  readonly name: string;
  readonly path: string;
  readonly options: CallOptions;
  readonly kept: { readonly what: "batch model" | "endpoint description"; readonly value: unknown };
}

/** A body the emulator answers 413 to: sent on a raw socket with only its head (`declared`), or streamed chunked past the limit. */
export interface OversizedBody {
  readonly via: "emulator, oversized body";
  readonly name: string;
  readonly how: "declared" | "chunked";
}

/** `messaging send --file NAME --dry-run [args]` refuses the file: exit 1, stderr (or the `--json` error) matches, nothing sent. */
export interface RefusedFile {
  readonly via: "messaging send";
  readonly name: string;
  readonly file: string;
  readonly content: string | Buffer;
  readonly args?: readonly string[];
  readonly error: RegExp;
}

/** `messaging send --file NAME [args]` sends the file to the emulator, which records exactly `stream` and `messages`. */
export interface KeptFile {
  readonly via: "messaging send";
  readonly name: string;
  readonly file: string;
  readonly content: string | Buffer;
  readonly args?: readonly string[];
  readonly kept: { readonly stream: string; readonly messages: readonly unknown[] };
}

/** `parseStrictJson(text)`: refused with its first problem as `field: reason`, or kept as `JSON.parse` reads it. */
export interface StrictJsonCase {
  readonly via: "parseStrictJson";
  readonly name: string;
  readonly text: string;
  readonly error?: RegExp;
}

/** `parseEvent(body)`: a ValidationError naming `field`, or the event's `data.object` kept exactly. */
export interface ParseEventCase {
  readonly via: "parseEvent";
  readonly name: string;
  readonly body: string | Buffer;
  readonly field?: string;
  readonly error?: RegExp;
  readonly kept?: unknown;
}

/** `client.sendMessageBatch` of this message: a ValidationError naming `field` (with `reason` when given), before any request. */
export interface ClientModelCase {
  readonly via: "client";
  readonly name: string;
  readonly message: unknown;
  readonly field: string;
  readonly reason?: string;
}

/** `client.createWebhookEndpoint(input)`: a ValidationError naming `field` (with `reason` matching when given), before any request. */
export interface ClientEndpointCase {
  readonly via: "client endpoint";
  readonly name: string;
  readonly input: unknown;
  readonly field: string;
  readonly reason?: RegExp;
}

/** `new MessagingClient(options)`: a ConfigurationError naming `option`, never another kind of error. */
export interface ClientOptionsCase {
  readonly via: "client options";
  readonly name: string;
  readonly options: Record<string, unknown>;
  readonly option: string;
}

/** A server echoes the API key in this form: no client error (message, inspect, JSON) carries it. */
export interface RedactionCase {
  readonly via: "client errors";
  readonly name: string;
  readonly form: string;
}

/** `verifyWebhookRequest` called wrongly: a ConfigurationError (not a TypeError) saying what to pass. */
export interface ReceiverArgumentCase {
  readonly via: "verifyWebhookRequest";
  readonly name: string;
  readonly call: "headerName" | "used body" | "argument" | "replayGuard" | "maxBodyBytes";
  readonly value?: unknown;
  readonly error: RegExp;
}

export type HostileCase =
  | ClientEndpointCase
  | ClientOptionsCase
  | RefusedRequest
  | KeptRequest
  | OversizedBody
  | RefusedFile
  | KeptFile
  | StrictJsonCase
  | ParseEventCase
  | ClientModelCase
  | RedactionCase
  | ReceiverArgumentCase;

// ---- the emulator's HTTP API ----

const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
const batchWithModel = (model: string) =>
  `{"stream":"transactional","messages":[{"tos":["+254712345678"],"template":{"id":"t","model":${model}}}]}`;
const rawJson = (body: string | Buffer): CallOptions => ({ body, headers: { "content-type": "application/json" } });
const rawForm = (body: string | Buffer): CallOptions => ({ body, headers: { "content-type": "application/x-www-form-urlencoded" } });
const refusedRequest = (row: Omit<RefusedRequest, "via">): RefusedRequest => ({ via: "emulator", ...row });
const keptRequest = (row: Omit<KeptRequest, "via">): KeptRequest => ({ via: "emulator", ...row });

const EMULATOR: HostileCase[] = [
  // what the service stores must be what the user wrote, or an error
  refusedRequest({
    name: "an endpoint description starting with U+FEFF (a decoder would drop it)",
    path: "/v1/webhooks/endpoints",
    options: rawForm(`${endpointForm()}&description=%EF%BB%BFhello`),
    status: 400,
    title: "validation_failed",
    field: "description",
  }),
  refusedRequest({
    name: "an event type starting with U+FEFF",
    path: "/v1/webhooks/endpoints",
    options: rawForm(endpointForm({ "events[]": ["\ufeffpayment.succeeded"] }).toString()),
    status: 400,
    title: "validation_failed",
    field: "events",
  }),
  refusedRequest({
    name: "an endpoint url with a tab inside (URL parsing drops it: deliveries would go elsewhere)",
    path: "/v1/webhooks/endpoints",
    options: rawForm(endpointForm({ url: "https://example.com/ho\toks" }).toString()),
    status: 400,
    title: "validation_failed",
    field: "url",
  }),
  refusedRequest({
    name: "an endpoint url with a line break inside",
    path: "/v1/webhooks/endpoints",
    options: rawForm(endpointForm({ url: "https://exam\nple.com/hooks" }).toString()),
    status: 400,
    title: "validation_failed",
    field: "url",
  }),
  refusedRequest({
    name: "a gzip-encoded batch (Content-Encoding: gzip)",
    path: "/v1/message_batches",
    options: {
      body: Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]),
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    },
    status: 415,
    title: "unsupported_media_type",
  }),
  refusedRequest({
    name: "a br-encoded endpoint form (Content-Encoding: br)",
    path: "/v1/webhooks/endpoints",
    options: { body: "x", headers: { "content-type": "application/x-www-form-urlencoded", "content-encoding": "br" } },
    status: 415,
    title: "unsupported_media_type",
  }),
  // DNS rebinding: a browser sends the attacking page's own name as Host
  refusedRequest({
    name: "a batch with the Host of another site (DNS rebinding)",
    path: "/v1/message_batches",
    options: {
      ...rawJson(`{"stream":"transactional","messages":[{"tos":["+254712345678"],"body":"x"}]}`),
      headers: { host: "rebind.example" },
    },
    status: 403,
    title: "host_not_allowed",
  }),
  refusedRequest({
    name: "an endpoint with a Host that only starts like localhost",
    path: "/v1/webhooks/endpoints",
    options: { form: endpointForm(), headers: { host: "localhost.rebind.example:80" } },
    status: 403,
    title: "host_not_allowed",
  }),
  // prototype keys
  refusedRequest({
    name: "__proto__ at the top of a batch",
    path: "/v1/message_batches",
    options: rawJson(`{"stream":"transactional","messages":[{"tos":["+254712345678"],"body":"x"}],"__proto__":{"admin":true}}`),
    status: 400,
    title: "validation_failed",
    field: '["__proto__"]',
  }),
  refusedRequest({
    name: "__proto__ in a message",
    path: "/v1/message_batches",
    options: rawJson(`{"stream":"transactional","messages":[{"tos":["+254712345678"],"body":"x","__proto__":{"body":"y"}}]}`),
    status: 400,
    title: "validation_failed",
    field: 'messages[0]["__proto__"]',
  }),
  refusedRequest({
    name: "constructor in a message",
    path: "/v1/message_batches",
    options: rawJson(`{"stream":"transactional","messages":[{"tos":["+254712345678"],"body":"x","constructor":1}]}`),
    status: 400,
    title: "validation_failed",
    field: "messages[0].constructor",
  }),
  refusedRequest({
    name: "prototype at the top of a batch",
    path: "/v1/message_batches",
    options: rawJson(`{"stream":"transactional","messages":[{"tos":["+254712345678"],"body":"x"}],"prototype":{}}`),
    status: 400,
    title: "validation_failed",
    field: "prototype",
  }),
  refusedRequest({
    name: "__proto__ in a template model (zod would drop it)",
    path: "/v1/message_batches",
    options: rawJson(batchWithModel(`{"name":"x","__proto__":{"polluted":1}}`)),
    status: 400,
    title: "validation_failed",
    field: 'messages[0].template.model["__proto__"]',
  }),
  refusedRequest({
    name: "__proto__ in /_emulator/faults",
    path: "/_emulator/faults",
    options: rawJson(`{"failureRate":0,"__proto__":{"failureRate":1}}`),
    status: 400,
    title: "validation_failed",
    field: '["__proto__"]',
  }),
  refusedRequest({
    name: "constructor in /_emulator/faults",
    path: "/_emulator/faults",
    options: rawJson(`{"failureRate":0,"constructor":{"x":1}}`),
    status: 400,
    title: "validation_failed",
    field: "constructor",
  }),
  refusedRequest({
    name: "__proto__ in event data",
    path: "/_emulator/events",
    options: rawJson(`{"type":"payment.succeeded","data":{"__proto__":{"x":1}}}`),
    status: 400,
    title: "validation_failed",
    field: 'data["__proto__"]',
  }),
  refusedRequest({
    name: "__proto__ in /_emulator/events",
    path: "/_emulator/events",
    options: rawJson(`{"type":"payment.succeeded","__proto__":{}}`),
    status: 400,
    title: "validation_failed",
    field: '["__proto__"]',
  }),
  refusedRequest({
    name: "a form field named __proto__",
    path: "/v1/webhooks/endpoints",
    options: rawForm(`${endpointForm()}&__proto__=x`),
    status: 400,
    title: "validation_failed",
    field: '["__proto__"]',
  }),
  refusedRequest({
    name: "a form field named constructor",
    path: "/v1/webhooks/endpoints",
    options: rawForm(`${endpointForm()}&constructor=x`),
    status: 400,
    title: "validation_failed",
    field: "constructor",
  }),
  refusedRequest({
    name: "a form field named prototype, twice",
    path: "/v1/webhooks/endpoints",
    options: rawForm(`${endpointForm()}&prototype=x&prototype=y`),
    status: 400,
    title: "validation_failed",
    field: "prototype",
  }),
  // nesting
  refusedRequest({
    name: "a template model nested 50,000 deep",
    path: "/v1/message_batches",
    options: rawJson(batchWithModel(deep(50_000))),
    status: 400,
    title: "validation_failed",
    field: "messages[0].template.model",
  }),
  refusedRequest({
    name: "a template model one level over the limit (33 in all)",
    path: "/v1/message_batches",
    options: rawJson(batchWithModel(deep(29))),
    status: 400,
    title: "validation_failed",
    field: "messages[0].template.model",
  }),
  refusedRequest({
    name: "event data nested 10,000 deep",
    path: "/_emulator/events",
    options: rawJson(`{"type":"payment.succeeded","data":${deep(10_000)}}`),
    status: 400,
    title: "validation_failed",
    field: "data",
  }),
  refusedRequest({
    name: "an array nested 100,000 deep",
    path: "/v1/message_batches",
    options: rawJson(`${"[".repeat(100_000)}${"]".repeat(100_000)}`),
    status: 400,
    title: "validation_failed",
    field: "[0]",
  }),
  // numbers JSON cannot carry back
  refusedRequest({
    name: "1e400 (Infinity once parsed) in a model",
    path: "/v1/message_batches",
    options: rawJson(batchWithModel(`{"amount":1e400}`)),
    status: 400,
    title: "validation_failed",
    field: "messages[0].template.model.amount",
  }),
  refusedRequest({
    name: "-1e400 in event data",
    path: "/_emulator/events",
    options: rawJson(`{"type":"payment.succeeded","data":{"n":-1e400}}`),
    status: 400,
    title: "validation_failed",
    field: "data.n",
  }),
  refusedRequest({
    name: "1e400 as a fault rate",
    path: "/_emulator/faults",
    options: rawJson(`{"failureRate":1e400}`),
    status: 400,
    title: "validation_failed",
    field: "failureRate",
  }),
  // encodings
  refusedRequest({
    name: "invalid UTF-8 in a JSON body",
    path: "/v1/message_batches",
    options: rawJson(
      Buffer.concat([
        Buffer.from(`{"stream":"transactional","messages":[{"tos":["+254712345678"],"body":"caf`),
        Buffer.from([0xe9]),
        Buffer.from(`"}]}`),
      ]),
    ),
    status: 400,
    title: "malformed_json",
  }),
  refusedRequest({
    name: "a lone continuation byte in event JSON",
    path: "/_emulator/events",
    options: rawJson(Buffer.from([0x7b, 0x80, 0x7d])),
    status: 400,
    title: "malformed_json",
  }),
  refusedRequest({
    name: "raw invalid UTF-8 in a form body",
    path: "/v1/webhooks/endpoints",
    options: rawForm(Buffer.concat([Buffer.from(`${endpointForm()}&description=caf`), Buffer.from([0xe9])])),
    status: 400,
    title: "malformed_form",
  }),
  refusedRequest({
    name: "percent-encoded invalid UTF-8 in a form value",
    path: "/v1/webhooks/endpoints",
    options: rawForm(`${endpointForm()}&description=caf%E9`),
    status: 400,
    title: "malformed_form",
  }),
  refusedRequest({
    name: "percent-encoded invalid UTF-8 in a form name",
    path: "/v1/webhooks/endpoints",
    options: rawForm(`${endpointForm()}&%FF=1`),
    status: 400,
    title: "malformed_form",
  }),
  refusedRequest({
    name: "an overlong encoding of '/' in a form value",
    path: "/v1/webhooks/endpoints",
    options: rawForm(`url=https:%C0%AF%C0%AFexample.com&events%5B%5D=payment.succeeded`),
    status: 400,
    title: "malformed_form",
  }),
  // the JSON reading rule (schemas/strict-json.ts): duplicate keys and inexact numbers
  refusedRequest({
    name: "a duplicate key in a message (the last would win)",
    path: "/v1/message_batches",
    options: rawJson(`{"stream":"transactional","messages":[{"tos":["+254712345678"],"body":"SEND THIS","body":"not this"}]}`),
    status: 400,
    title: "validation_failed",
    field: "messages[0].body",
  }),
  refusedRequest({
    name: "a duplicate stream at the top of a batch",
    path: "/v1/message_batches",
    options: rawJson(`{"stream":"transactional","stream":"marketing","messages":[{"tos":["+254712345678"],"body":"x"}]}`),
    status: 400,
    title: "validation_failed",
    field: "stream",
  }),
  refusedRequest({
    name: "a duplicate key in event data",
    path: "/_emulator/events",
    options: rawJson(`{"type":"payment.succeeded","data":{"amount":1,"amount":2}}`),
    status: 400,
    title: "validation_failed",
    field: "data.amount",
  }),
  refusedRequest({
    name: "a duplicate failureRate in /_emulator/faults",
    path: "/_emulator/faults",
    options: rawJson(`{"failureRate":0,"failureRate":1}`),
    status: 400,
    title: "validation_failed",
    field: "failureRate",
  }),
  refusedRequest({
    name: "an integer above 2^53 in a model (a double rounds it)",
    path: "/v1/message_batches",
    options: rawJson(batchWithModel(`{"id":9007199254740993}`)),
    status: 400,
    title: "validation_failed",
    field: "messages[0].template.model.id",
  }),
  refusedRequest({
    name: "1e-400 (0 once parsed) in a model",
    path: "/v1/message_batches",
    options: rawJson(batchWithModel(`{"x":1e-400}`)),
    status: 400,
    title: "validation_failed",
    field: "messages[0].template.model.x",
  }),
  refusedRequest({
    name: "-0 in event data",
    path: "/_emulator/events",
    options: rawJson(`{"type":"payment.succeeded","data":{"n":-0}}`),
    status: 400,
    title: "validation_failed",
    field: "data.n",
  }),
  refusedRequest({
    name: "more digits than a double holds in a model",
    path: "/v1/message_batches",
    options: rawJson(batchWithModel(`{"x":0.10000000000000001}`)),
    status: 400,
    title: "validation_failed",
    field: "messages[0].template.model.x",
  }),
  // charsets other than UTF-8
  refusedRequest({
    name: "a JSON body declared charset=iso-8859-1",
    path: "/v1/message_batches",
    options: {
      body: Buffer.from(`{"stream":"transactional","messages":[{"tos":["+254712345678"],"body":"caf\u00e9"}]}`, "latin1"),
      headers: { "content-type": "application/json; charset=iso-8859-1" },
    },
    status: 415,
    title: "unsupported_media_type",
  }),
  refusedRequest({
    name: "a form body declared charset=windows-1252",
    path: "/v1/webhooks/endpoints",
    options: { body: endpointForm().toString(), headers: { "content-type": "application/x-www-form-urlencoded; charset=windows-1252" } },
    status: 415,
    title: "unsupported_media_type",
  }),
  refusedRequest({
    name: "a UTF-16LE JSON body with its byte order mark",
    path: "/v1/message_batches",
    options: rawJson(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`{"stream":"transactional"}`, "utf16le")])),
    status: 415,
    title: "unsupported_media_type",
  }),
  refusedRequest({
    name: "a UTF-16LE JSON body without a mark",
    path: "/_emulator/events",
    options: rawJson(Buffer.from(`{"type":"payment.succeeded"}`, "utf16le")),
    status: 415,
    title: "unsupported_media_type",
  }),
  // per-field limits of endpoints (emulator/README.md)
  refusedRequest({
    name: "an endpoint description over 1,024 bytes",
    path: "/v1/webhooks/endpoints",
    options: rawForm(endpointForm({ description: "d".repeat(5 * 1024 * 1024) }).toString()),
    status: 400,
    title: "validation_failed",
    field: "description",
  }),
  refusedRequest({
    name: "an endpoint url over 8,192 bytes",
    path: "/v1/webhooks/endpoints",
    options: rawForm(endpointForm({ url: `https://example.com/${"u".repeat(9000)}` }).toString()),
    status: 400,
    title: "validation_failed",
    field: "url",
  }),
  refusedRequest({
    name: "65 event types on an endpoint",
    path: "/v1/webhooks/endpoints",
    options: rawForm(endpointForm({ "events[]": Array.from({ length: 65 }, (_, i) => `type.${i}`) }).toString()),
    status: 400,
    title: "validation_failed",
    field: "events",
  }),
  refusedRequest({
    name: "metadata on create (not a create field)",
    path: "/v1/webhooks/endpoints",
    options: rawForm(`${endpointForm()}&metadata%5Bk%5D=v`),
    status: 400,
    title: "validation_failed",
    field: "metadata[k]",
  }),
  // shapes
  refusedRequest({
    name: "a JSON array as a batch",
    path: "/v1/message_batches",
    options: rawJson("[]"),
    status: 400,
    title: "validation_failed",
  }),
  refusedRequest({
    name: "JSON null as an event",
    path: "/_emulator/events",
    options: rawJson("null"),
    status: 400,
    title: "validation_failed",
  }),
  refusedRequest({
    name: "a sparse-looking array with null in messages",
    path: "/v1/message_batches",
    options: rawJson(`{"stream":"transactional","messages":[{"tos":["+254712345678"],"body":"x"},null]}`),
    status: 400,
    title: "validation_failed",
    field: "messages[1]",
  }),
  refusedRequest({
    name: "a repeated version header",
    path: "/v1/message_batches",
    options: { ...rawJson("{}"), headers: { "content-type": "application/json", "x-service-version": "2024-06-01, 2024-06-02" } },
    status: 400,
    title: "invalid_version_header",
  }),
  refusedRequest({
    name: "limit=0 on /_emulator/batches",
    path: "/_emulator/batches?limit=0",
    options: {},
    status: 400,
    title: "validation_failed",
    field: "limit",
  }),
  refusedRequest({
    name: "limit=-1 on /_emulator/batches",
    path: "/_emulator/batches?limit=-1",
    options: {},
    status: 400,
    title: "validation_failed",
    field: "limit",
  }),
  refusedRequest({
    name: "limit twice on /_emulator/batches",
    path: "/_emulator/batches?limit=1&limit=2",
    options: {},
    status: 400,
    title: "validation_failed",
    field: "limit",
  }),
  refusedRequest({
    name: "after=__proto__ on /_emulator/batches",
    path: "/_emulator/batches?after=__proto__",
    options: {},
    status: 400,
    title: "validation_failed",
    field: "after",
  }),
  refusedRequest({
    name: "redelivering delivery 'constructor'",
    path: "/_emulator/deliveries/constructor/retry",
    options: { json: {} },
    status: 404,
    title: "not_found",
  }),
  refusedRequest({
    name: "redelivering delivery '__proto__'",
    path: "/_emulator/deliveries/__proto__/retry",
    options: { json: {} },
    status: 404,
    title: "not_found",
  }),
  refusedRequest({ name: "a route named toString", path: "/_emulator/toString", options: {}, status: 404, title: "not_found" }),
  refusedRequest({
    name: "a form field given twice (description)",
    path: "/v1/webhooks/endpoints",
    options: rawForm(`${endpointForm().toString()}&description=a&description=b`),
    status: 400,
    title: "validation_failed",
    field: "description",
  }),
  refusedRequest({
    name: "a form field given twice (format)",
    path: "/v1/webhooks/endpoints",
    options: rawForm(`${endpointForm().toString()}&format=basic&format=cloudEvents`),
    status: 400,
    title: "validation_failed",
    field: "format",
  }),
  refusedRequest({
    name: "an event body over 64 KiB",
    path: "/_emulator/events",
    options: rawJson(`{"type":"payment.succeeded","data":{"note":"${"n".repeat(70 * 1024)}"}}`),
    status: 413,
    title: "payload_too_large",
  }),
  refusedRequest({
    name: "a UTF-16BE JSON body with its byte order mark",
    path: "/_emulator/events",
    options: rawJson(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(`{"type":"payment.succeeded"}`, "utf16le").swap16()])),
    status: 415,
    title: "unsupported_media_type",
  }),
  // accepted, and kept exactly
  keptRequest({
    name: "a JSON body with a UTF-8 byte order mark (dropped) and non-ASCII text",
    path: "/v1/message_batches",
    options: rawJson(Buffer.from(`\ufeff${batchWithModel(`{"text":"café ☕ 𝄞","escaped":"caf\\u00e9"}`)}`)),
    kept: { what: "batch model", value: { text: "café ☕ 𝄞", escaped: "café" } },
  }),
  keptRequest({
    name: "constructor, prototype and hasOwnProperty keys of a model are data",
    path: "/v1/message_batches",
    options: rawJson(batchWithModel(`{"constructor":"c","prototype":{"toString":"t"},"hasOwnProperty":1,"name":"x"}`)),
    kept: { what: "batch model", value: { constructor: "c", prototype: { toString: "t" }, hasOwnProperty: 1, name: "x" } },
  }),
  keptRequest({
    name: "a model nested exactly to the limit (4 levels of batch and 28 of model make 32)",
    path: "/v1/message_batches",
    options: rawJson(batchWithModel(deep(28))),
    kept: { what: "batch model", value: JSON.parse(deep(28)) },
  }),
  keptRequest({
    name: "numbers that read back exactly, at the edges",
    path: "/v1/message_batches",
    options: rawJson(batchWithModel(`{"max":9007199254740991,"min":-9007199254740991,"tiny":5e-324,"rate":0.1,"e":1E+2}`)),
    kept: { what: "batch model", value: { max: 9007199254740991, min: -9007199254740991, tiny: 5e-324, rate: 0.1, e: 100 } },
  }),
  keptRequest({
    name: "non-ASCII form values, percent-encoded",
    path: "/v1/webhooks/endpoints",
    options: rawForm(endpointForm({ description: "café ☕ 日本" }).toString()),
    kept: { what: "endpoint description", value: "café ☕ 日本" },
  }),
  keptRequest({
    name: "non-ASCII form values, raw UTF-8",
    path: "/v1/webhooks/endpoints",
    options: rawForm(`${endpointForm().toString()}&description=caf\u00e9+ok`),
    kept: { what: "endpoint description", value: "café ok" },
  }),
  { via: "emulator, oversized body", name: "a Content-Length over the limit: 413 before a byte of the body is sent", how: "declared" },
  { via: "emulator, oversized body", name: "a chunked body that grows over the limit: 413, not a reset", how: "chunked" },
];

// ---- messaging send files ----

const A = "+254700000001";
const OK = `{"tos":["${A}"],"body":"fine"}`;
const INVALID_UTF8 = Buffer.from([0x7b, 0x22, 0x74, 0x6f, 0x73, 0x22, 0x3a, 0x5b, 0x22, 0xff, 0xfe, 0x22, 0x5d, 0x7d]); // {"tos":["\xff\xfe"]}
const refusedFile = (name: string, file: string, content: string | Buffer, error: RegExp, args?: string[]): RefusedFile => ({
  via: "messaging send",
  name,
  file,
  content,
  error,
  args,
});

const SEND: HostileCase[] = [
  refusedFile(
    "invalid UTF-8 on a line (NDJSON)",
    "utf8.ndjson",
    Buffer.concat([Buffer.from(`${OK}\n`), INVALID_UTF8, Buffer.from(`\n${OK}\n`)]),
    /line 2: not valid UTF-8/,
  ),
  refusedFile(
    "invalid UTF-8 in a body (NDJSON), not replaced by U+FFFD",
    "utf8-body.ndjson",
    Buffer.concat([Buffer.from(`{"tos":["${A}"],"body":"caf`), Buffer.from([0xc3]), Buffer.from('"}\n')]),
    /line 1: not valid UTF-8/,
  ),
  refusedFile(
    "invalid UTF-8 in a CSV row",
    "utf8.csv",
    Buffer.concat([Buffer.from(`to,body\n${A},ok\n${A},`), Buffer.from([0xe2, 0x28, 0xa1]), Buffer.from("\n")]),
    /line 3: not valid UTF-8/,
  ),
  refusedFile(
    "invalid UTF-8 in a JSON file",
    "utf8.json",
    Buffer.concat([Buffer.from(`[${OK},\n{"tos":["${A}"],"body":"`), Buffer.from([0xff]), Buffer.from('"}]')]),
    /line 2\): not valid UTF-8/,
  ),
  refusedFile("duplicate CSV header", "dup.csv", `to,body,body\n${A},one,two\n`, /line 1: duplicate column 'body' \(columns 2 and 3\)/),
  refusedFile(
    "duplicate CSV model column",
    "dup-model.csv",
    `to,template_id,model.a,model.a\n${A},t,1,2\n`,
    /line 1: duplicate column 'model\.a'/,
  ),
  refusedFile("unknown CSV column (a typo would be dropped)", "typo.csv", `to,bdy\n${A},hi\n`, /line 1: unknown column 'bdy'/),
  refusedFile("__proto__ CSV column", "proto.csv", `to,body,__proto__\n${A},hi,x\n`, /line 1: column '__proto__' is not allowed/),
  refusedFile(
    "model.__proto__ CSV column",
    "proto-model.csv",
    `to,template_id,model.__proto__\n${A},t,x\n`,
    /line 1: column 'model\.__proto__' is not allowed/,
  ),
  refusedFile(
    "a number JSON.parse makes infinite",
    "inf.ndjson",
    `${OK}\n{"tos":["${A}"],"template":{"id":"t","model":{"amount":1e400}}}\n`,
    /line 2: template\.model\.amount: expected a finite number, got Infinity/,
  ),
  refusedFile(
    "a negative infinite number in a JSON file",
    "inf.json",
    `[{"tos":["${A}"],"template":{"id":"t","model":{"x":[-1e999]}}}]`,
    /item 0 \(line 1\): template\.model\.x\[0\]: expected a finite number, got -Infinity/,
  ),
  refusedFile(
    "NaN / Infinity literals are not JSON",
    "nan.ndjson",
    `{"tos":["${A}"],"template":{"id":"t","model":{"x":NaN}}}\n`,
    /line 1: not valid JSON/,
  ),
  refusedFile(
    "__proto__ key at the top of a message",
    "proto.ndjson",
    `{"tos":["${A}"],"body":"x","__proto__":{"polluted":true}}\n`,
    /line 1: \["__proto__"\]: the key __proto__ is not accepted/,
  ),
  refusedFile(
    "__proto__ key inside a model",
    "proto-model.ndjson",
    `{"tos":["${A}"],"template":{"id":"t","model":{"__proto__":{"polluted":true}}}}\n`,
    /line 1: template\.model\["__proto__"\]: the key __proto__ is not accepted/,
  ),
  refusedFile(
    "constructor key at the top of a message",
    "constructor.ndjson",
    `{"tos":["${A}"],"body":"x","constructor":1}\n`,
    /line 1: constructor: unknown field/,
  ),
  refusedFile(
    "prototype key at the top of a message",
    "prototype.json",
    `[{"tos":["${A}"],"body":"x","prototype":{}}]`,
    /item 0 \(line 1\): prototype: unknown field/,
  ),
  refusedFile(
    "nesting deeper than the limit",
    "deep.ndjson",
    `{"tos":["${A}"],"template":{"id":"t","model":{"a":${"[".repeat(50000)}${"]".repeat(50000)}}}}\n`,
    /line 1: template\.model\.a(\[0\])+: nested more than 32 levels deep/,
  ),
  refusedFile(
    "a model nested 29 levels: within the reader's limit, beyond what the batch request may carry",
    "deep-model.ndjson",
    `${OK}\n{"tos":["${A}"],"template":{"id":"t","model":${'{"a":'.repeat(29)}true${"}".repeat(29)}}}\n`,
    /line 2: template\.model(\.a)+: nested more than 28 levels deep \(the request that carries it may nest 32\)/,
  ),
  refusedFile("a hole in a JSON array is not JSON", "holes.json", `[${OK},,${OK}]`, /not valid JSON \(line 1\): unexpected ','/),
  // the JSON reading rule (issue: silent changes)
  refusedFile(
    "a duplicate key (the last would win)",
    "dup.ndjson",
    `{"tos":["${A}"],"body":"SEND THIS","body":"not this"}\n`,
    /line 1: body: this key appears more than once in the object/,
  ),
  refusedFile(
    "a duplicate key in a JSON file's message",
    "dup.json",
    `[{"tos":["${A}"],"tos":[],"body":"x"}]`,
    /item 0 \(line 1\): tos: this key appears/,
  ),
  refusedFile("a leading comma in a JSON file's top-level object", "lead-comma.json", `{,"messages":[${OK}]}`, /line 1\): unexpected ','/),
  refusedFile(
    "a trailing comma in a JSON file's top-level object",
    "trail-comma.json",
    `{"messages":[${OK}],}`,
    /line 1\): unexpected '}' after ','/,
  ),
  refusedFile(
    "a missing comma after the messages array",
    "no-comma.json",
    `{"messages":[${OK}] "note":"x"}`,
    /line 1\): expected ',' or '}'/,
  ),
  refusedFile(
    "a missing comma after a skipped top-level value",
    "no-comma-2.json",
    `{"note":"x" "messages":[${OK}]}`,
    /line 1\): the value of "note" is not valid JSON/,
  ),
  refusedFile(
    "mismatched brackets in a skipped top-level value",
    "mismatch.json",
    `{"note":[1},"messages":[${OK}]}`,
    /line 1\): the value of "note" is not valid JSON/,
  ),
  refusedFile(
    "a hole in a skipped top-level array",
    "hole.json",
    `{"note":[1,,2],"messages":[${OK}]}`,
    /the value of "note" is not valid JSON/,
  ),
  refusedFile(
    "a duplicate key in a skipped top-level value",
    "dup-skipped.json",
    `{"note":{"a":1,"a":2},"messages":[${OK}]}`,
    /the value of "note" is not valid JSON.*a/,
  ),
  refusedFile(
    "a bare word as a skipped top-level value",
    "bare.json",
    `{"note":tru,"messages":[${OK}]}`,
    /the value of "note" is not valid JSON/,
  ),
  refusedFile(
    "a pretty-printed JSON array saved as .ndjson: one error saying to rename it or pass --format json",
    "pretty.ndjson",
    `[\n  {\n    "tos": ["${A}"],\n    "body": "hi"\n  }\n]\n`,
    /pretty\.ndjson: line 1 starts a JSON document spread over several lines.*rename it to \.json or pass --format json\nnothing was sent\n$/s,
  ),
  refusedFile(
    "'to' instead of 'tos' in NDJSON: did you mean tos?",
    "to.ndjson",
    `{"to":["${A}"],"body":"hi"}\n`,
    /line 1: to: unknown field \(did you mean tos\?\)/,
  ),
  refusedFile(
    "'bdy' in a JSON file: did you mean body?",
    "bdy.json",
    `[{"tos":["${A}"],"bdy":"hi"}]`,
    /bdy: unknown field \(did you mean body\?\)/,
  ),
  refusedFile(
    "a bad number in a CSV file names the file's column, not tos[0]",
    "badnumber.csv",
    "to,body\n12345,hi\n",
    /line 2: tos\[0\] \(column 'to', recipient 1\): expected an E\.164 phone number/,
  ),
  refusedFile(
    "an empty body in a CSV file names the column",
    "nobody.csv",
    `to,template_id,model.name\n${A},,Ann\n`,
    /line 2: template\.id \(column 'template_id'\): /,
  ),
  refusedFile(
    "both 'to' and 'tos' columns in a CSV file (one would be dropped)",
    "to-and-tos.csv",
    `to,tos,body\n${A},+254700000002,hi\n`,
    /columns 'to' \(1\) and 'tos' \(2\) both give the recipients/,
  ),
  refusedFile(
    "a duplicate top-level key in a JSON file",
    "dup-top.json",
    `{"messages":[${OK}],"messages":[]}`,
    /line 1\): the key "messages" appears twice/,
  ),
  refusedFile(
    "an integer above 2^53",
    "big.ndjson",
    `{"tos":["${A}"],"template":{"id":"t","model":{"id":9007199254740993}}}\n`,
    /line 1: template\.model\.id: 9007199254740993 .* read as 9007199254740992/,
  ),
  refusedFile(
    "1e-400",
    "tiny.ndjson",
    `{"tos":["${A}"],"template":{"id":"t","model":{"x":1e-400}}}\n`,
    /line 1: template\.model\.x: 1e-400 is too small/,
  ),
  refusedFile(
    "-0",
    "negzero.json",
    `[{"tos":["${A}"],"template":{"id":"t","model":{"x":-0}}}]`,
    /item 0 \(line 1\): template\.model\.x: expected a number other than -0/,
  ),
  // encodings and line endings
  refusedFile(
    "a UTF-16 NDJSON file",
    "utf16.ndjson",
    Buffer.from(`${OK}\n`, "utf16le"),
    /utf16\.ndjson: the file is UTF-16 or UTF-32 .*only UTF-8/,
  ),
  refusedFile(
    "a UTF-16 CSV file with its byte order mark",
    "utf16.csv",
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`to,body\n${A},x\n`, "utf16le")]),
    /the file is UTF-16LE \(byte order mark FF FE\)/,
  ),
  refusedFile(
    "CR-only line endings with a bad second line",
    "mac.ndjson",
    `${OK}\r{"tos":["${A}"]}\r`,
    /line 2: \(root\): a message needs either body or template/,
  ),
  // CSV errors go through the error path with line and field
  refusedFile(
    "a stray quote in a CSV value",
    "stray.csv",
    `to,body\n${A},say "hi"\n`,
    /stray\.csv: not valid CSV at line 2, field 2 \(body\): Invalid Opening Quote/,
  ),
  refusedFile(
    "a space before a quoted CSV value",
    "space.csv",
    `to,body\n${A}, "hi"\n`,
    /not valid CSV at line 2, field 2 \(body\): Invalid Opening Quote/,
  ),
  refusedFile("CSV model values without a template id", "model.csv", `to,body,template_id,model.x\n${A},hi,,v\n`, /line 2: template\.id/),
  // a message no call can carry
  refusedFile(
    "a single message over the per-request limit",
    "huge.ndjson",
    `${OK}\n{"tos":["${A}"],"body":"${"x".repeat(10 * 1024 * 1024 + 10)}"}\n`,
    /line 2: the message takes \d+ bytes as JSON; one call carries at most 10485760 bytes \(10 MiB\).*--batch-size 1/,
  ),
  refusedFile(
    "a stray quote in a CSV value, with --json",
    "stray-json.csv",
    `to,body\n${A},say "hi"\n`,
    /^not valid CSV at line 2, field 2 \(body\): Invalid Opening Quote/,
    ["--json"],
  ),
  refusedFile(
    "a JSON file's stream that --stream contradicts",
    "stream-conflict.json",
    `{"stream":"marketing","messages":[${OK}]}`,
    /stream-conflict\.json: line 1: the file's "stream" is 'marketing' but --stream is 'transactional'/,
    ["--stream", "transactional"],
  ),
  {
    via: "messaging send",
    name: "a JSON file's top-level stream is used",
    file: "stream.json",
    content: `{"stream":"marketing","messages":[${OK}]}`,
    kept: { stream: "marketing", messages: [{ tos: [A], body: "fine" }] },
  },
  {
    via: "messaging send",
    name: "a JSON file's stream and an agreeing --stream",
    file: "stream-agree.json",
    // Not the row above's message: the same message on the same stream would be a replay of its call.
    content: `{"stream":"marketing","messages":[{"tos":["${A}"],"body":"agreed"}]}`,
    args: ["--stream", "marketing"],
    kept: { stream: "marketing", messages: [{ tos: [A], body: "agreed" }] },
  },
  {
    via: "messaging send",
    name: "CSV values exactly: a quoted CRLF, unquoted spaces, an empty model value",
    file: "exact.csv",
    content: `to,body,template_id,model.x\r\n${A},"a\r\nb",,\r\n${A},  hello  ,,\r\n${A},,t,\r\n`,
    kept: {
      stream: "transactional",
      messages: [
        { tos: [A], body: "a\r\nb" },
        { tos: [A], body: "  hello  " },
        { tos: [A], template: { id: "t", model: { x: "" } } },
      ],
    },
  },
  {
    via: "messaging send",
    name: "CR-only line endings",
    file: "mac-ok.ndjson",
    content: `${OK}\r{"tos":["${A}"],"body":"two"}\r`,
    kept: {
      stream: "transactional",
      messages: [
        { tos: [A], body: "fine" },
        { tos: [A], body: "two" },
      ],
    },
  },
  {
    via: "messaging send",
    name: "a UTF-8 byte order mark, and non-ASCII text",
    file: "bom.ndjson",
    content: `\ufeff{"tos":["${A}"],"body":"café ☕ 𝄞"}\n`,
    kept: { stream: "transactional", messages: [{ tos: [A], body: "café ☕ 𝄞" }] },
  },
  {
    via: "messaging send",
    name: "constructor and prototype as model names are data",
    file: "names.ndjson",
    content: `{"tos":["${A}"],"template":{"id":"t","model":{"constructor":"c","prototype":"p","n":9007199254740991}}}\n`,
    kept: {
      stream: "transactional",
      messages: [{ tos: [A], template: { id: "t", model: { constructor: "c", prototype: "p", n: 9007199254740991 } } }],
    },
  },
];

// ---- the JSON reading rule (schemas/strict-json.ts) ----

const strict = (name: string, text: string, error?: RegExp): StrictJsonCase => ({ via: "parseStrictJson", name, text, error });

const STRICT_JSON: HostileCase[] = [
  strict("a duplicate key (the last would win)", '{"body":"SEND THIS","body":"not this"}', /^body: this key appears more than once/),
  strict("a duplicate key spelled with an escape", '{"a":1,"\\u0061":2}', /^a: this key appears more than once/),
  strict("a duplicate deep in an array", '{"messages":[{"x":1},{"tos":[],"tos":[]}]}', /^messages\[1\]\.tos: this key/),
  strict("a duplicate __proto__ key", '{"__proto__":1,"__proto__":2}', /^\["__proto__"\]: this key appears more than once/),
  strict(
    "an integer above 2^53 that a double rounds",
    '{"n":9007199254740993}',
    /^n: 9007199254740993 has more precision .* read as 9007199254740992/,
  ),
  strict("an exact integer above 2^53", '{"n":9007199254740994}', /^n: expected a number from -9007199254740991 to 9007199254740991/),
  strict("a large float", "[1e300]", /^\[0\]: expected a number from/),
  strict("underflow to zero", '{"n":1e-400}', /^n: 1e-400 is too small .* read as 0/),
  strict("negative underflow", '{"n":-1e-400}', /^n: -1e-400 is too small/),
  strict("negative zero", '{"n":-0}', /^n: expected a number other than -0/),
  strict("negative zero with a fraction", '{"n":-0.0e5}', /^n: expected a number other than -0/),
  strict("too many significant digits", '{"n":0.10000000000000001}', /^n: 0\.10000000000000001 has more precision .* read as 0\.1/),
  strict("overflow to Infinity", '{"n":1e400}', /^n: expected a finite number, got Infinity/),
  strict("a number at the top level", "12345678901234567890", /^\(root\): 12345678901234567890 has more precision/),
  strict("ordinary numbers", '{"a":1,"b":-2.5,"c":0,"d":1e15,"e":0.1,"f":9007199254740991,"g":-9007199254740991,"h":1.5e-7,"i":100E-2}'),
  strict("a key repeated in different objects", '[{"a":1},{"a":2},{"b":{"a":3}}]'),
  strict("keys differing only in case", '{"a":1,"A":2}'),
  strict("quotes and backslashes in strings", '{"a\\"b":"x\\\\","a\\\\":"\\"","c":"\\\\\\""}'),
  strict("numbers inside strings are not numbers", '{"n":"9007199254740993","m":"-0"}'),
  strict("more than 16 keys", `{${Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(",")}}`),
  strict("CR, LF and tab as whitespace", '{\r"a":\t1\r}'),
];

// ---- parseEvent (receivers) ----

const event = (data: string) => `{"id":"evt_1","type":"payment.succeeded","created":"2024-06-01T00:00:00Z","data":{"object":${data}}}`;
const eventRefused = (name: string, body: string | Buffer, field: string, error: RegExp): ParseEventCase => ({
  via: "parseEvent",
  name,
  body,
  field,
  error,
});

const PARSE_EVENT: HostileCase[] = [
  eventRefused("a duplicate key (the last would win)", event(`{"amount":1,"amount":2}`), "data.object.amount", /appears more than once/),
  eventRefused(
    "a duplicate type at the top",
    `{"type":"payment.succeeded","type":"x","id":"e","data":{"object":{}}}`,
    "type",
    /more than once/,
  ),
  eventRefused("an integer above 2^53", event(`{"id":9007199254740993}`), "data.object.id", /read as 9007199254740992/),
  eventRefused("1e-400", event(`{"x":1e-400}`), "data.object.x", /read as 0/),
  eventRefused("-0", event(`{"x":-0}`), "data.object.x", /other than -0/),
  eventRefused("1e400", event(`{"x":1e400}`), "data.object.x", /finite number/),
  eventRefused("a UTF-16 body", Buffer.from(event("{}"), "utf16le"), "(root)", /UTF-16 or UTF-32.*only UTF-8/),
  eventRefused(
    "a UTF-16 body with its mark",
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(event("{}"), "utf16le")]),
    "(root)",
    /UTF-16LE/,
  ),
  {
    via: "parseEvent",
    name: "what reads back exactly, as written",
    body: event(`{"amount":9007199254740991,"rate":0.1,"tiny":5e-324,"name":"caf\\u00e9"}`),
    kept: { amount: 9007199254740991, rate: 0.1, tiny: 5e-324, name: "caf\u00e9" },
  },
];

// ---- the client (before any request) ----

const sparse: unknown[] = [];
sparse[2] = 1;
const clientModel = (name: string, model: unknown, field: string): ClientModelCase => ({
  via: "client",
  name,
  message: { tos: ["+254712345678"], template: { id: "t", model } },
  field,
});
/** A message with an own `key` (as JSON.parse makes it: `__proto__` too). */
const clientKey = (key: string, field: string): ClientModelCase => ({
  via: "client",
  name: `a message with an own ${key} key`,
  message: JSON.parse(`{"tos":["+254712345678"],"body":"x","${key}":{"body":"y"}}`),
  field,
  reason: "unknown field",
});

const CLIENT: HostileCase[] = [
  clientModel("Infinity in a model", { amount: Infinity }, "messages[0].template.model.amount"),
  clientModel("NaN in a model", { amount: NaN }, "messages[0].template.model.amount"),
  clientModel("a sparse array in a model", { list: sparse }, "messages[0].template.model.list[0]"),
  clientModel("undefined in a model's array", { list: [1, undefined] }, "messages[0].template.model.list[1]"),
  clientModel("a Date in a model", { when: new Date(0) }, "messages[0].template.model.when"),
  clientModel("a bigint in a model", { n: 1n }, "messages[0].template.model.n"),
  clientModel("a function in a model", { f: () => 1 }, "messages[0].template.model.f"),
  clientModel("an own __proto__ key in a model", JSON.parse(`{"__proto__":{"x":1}}`), 'messages[0].template.model["__proto__"]'),
  clientModel("-0 in a model (JSON would send 0)", { n: -0 }, "messages[0].template.model.n"),
  clientModel("an integer beyond 2^53 in a model", { id: 2 ** 53 + 2 }, "messages[0].template.model.id"),
  clientModel("a negative integer beyond -2^53 in a model", { id: -(2 ** 60) }, "messages[0].template.model.id"),
  clientModel(
    "a model nested deeper than the limit",
    JSON.parse(`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${"}".repeat(MAX_JSON_DEPTH + 1)}`),
    "messages[0].template.model.a",
  ),
  clientKey("__proto__", 'messages[0]["__proto__"]'),
  clientKey("constructor", "messages[0].constructor"),
  clientKey("prototype", "messages[0].prototype"),
];

// ---- redaction: a canary key in every form a server or proxy may echo ----

/** The canary API key of the redaction rows. */
export const CANARY = "sk_live_CANARY+key/with=odd.chars";
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const b64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");
const redaction = (name: string, form: string): RedactionCase => ({ via: "client errors", name, form });

const REDACTION: RedactionCase[] = [
  redaction("the key", CANARY),
  redaction("the key upper-cased", CANARY.toUpperCase()),
  redaction("the key lower-cased", CANARY.toLowerCase()),
  redaction("the key URL-encoded", encodeURIComponent(CANARY)),
  redaction(
    "the key URL-encoded, lower-case hex",
    encodeURIComponent(CANARY).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
  ),
  redaction("the Authorization header", `Basic ${b64(`${CANARY}:`)}`),
  redaction("the header with a lower-case scheme", `basic ${b64(`${CANARY}:`)}`),
  redaction("the header upper-cased", `BASIC ${b64(`${CANARY}:`)}`.toUpperCase()),
  redaction("the header with two spaces", `Basic  ${b64(`${CANARY}:`)}`),
  redaction("base64 of key:", b64(`${CANARY}:`)),
  redaction("base64 of key: without padding", b64(`${CANARY}:`).replace(/=+$/, "")),
  redaction("base64 of the key without ':'", b64(CANARY)),
  redaction("base64 of the key without ':' or padding", b64(CANARY).replace(/=+$/, "")),
  redaction("base64url of key:", b64url(`${CANARY}:`)),
  redaction("base64url of the key", b64url(CANARY)),
  redaction("base64 of key: upper-cased", b64(`${CANARY}:`).toUpperCase()),
  redaction("the key in hex", Buffer.from(CANARY, "utf8").toString("hex")),
  redaction("the key in hex, upper case", Buffer.from(CANARY, "utf8").toString("hex").toUpperCase()),
  redaction(
    "%XX on every character",
    [...Buffer.from(CANARY, "utf8")].map((b) => `%${b.toString(16).padStart(2, "0").toUpperCase()}`).join(""),
  ),
  redaction(
    "%xx on every character, lower case",
    [...Buffer.from(CANARY, "utf8")].map((b) => `%${b.toString(16).padStart(2, "0")}`).join(""),
  ),
  redaction("decimal HTML entities", [...CANARY].map((c) => `&#${c.charCodeAt(0)};`).join("")),
  redaction("hexadecimal HTML entities", [...CANARY].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join("")),
  redaction("HTML entities on every other character", [...CANARY].map((c, i) => (i % 2 === 0 ? `&#${c.charCodeAt(0)};` : c)).join("")),
  redaction("the key split by a line break", `${CANARY.slice(0, 9)}\n${CANARY.slice(9)}`),
  redaction("the key split by CRLF and a space (a folded header)", `${CANARY.slice(0, 12)}\r\n ${CANARY.slice(12)}`),
  redaction("the key split by a zero-width space", `${CANARY.slice(0, 5)}\u200b${CANARY.slice(5)}`),
  redaction("the key with a zero-width space between every character", [...CANARY].join("\u200b")),
  redaction("base64 wrapped by a line break", `${b64(`${CANARY}:`).slice(0, 20)}\n${b64(`${CANARY}:`).slice(20)}`),
  redaction("base64 of the whole Basic header", b64(`Basic ${b64(`${CANARY}:`)}`)),
  redaction("base64 of the whole Authorization header line", b64(`Authorization: Basic ${b64(`${CANARY}:`)}`)),
];

// ---- the receiver's arguments ----

const receiver = (name: string, call: ReceiverArgumentCase["call"], value: unknown, error: RegExp): ReceiverArgumentCase => ({
  via: "verifyWebhookRequest",
  name,
  call,
  value,
  error,
});

const RECEIVER: HostileCase[] = [
  receiver(
    "a MemoryReplayGuard whose clock returns NaN (it would never expire or match)",
    "replayGuard",
    new MemoryReplayGuard({ now: () => NaN }),
    /now\(\) must return.*got NaN/,
  ),
  receiver("an empty headerName", "headerName", "", /headerName must be an HTTP header name.*got ""/),
  receiver("a headerName with a space", "headerName", "x sig", /headerName .*got "x sig"/),
  receiver("a body already read", "used body", undefined, /already been read .*request\.clone\(\)/),
  receiver("a plain object for the Request", "argument", { body: "{}" }, /needs a standard Request.*got an object.*createWebhookHandler/),
  receiver("undefined for the Request", "argument", undefined, /needs a standard Request.*got undefined/),
  receiver("a string for the Request", "argument", "{}", /needs a standard Request.*got string/),
  receiver("a replayGuard without seen()", "replayGuard", {}, /replayGuard must be an object with a seen/),
  receiver(
    "a replayGuard with claim() but no complete() (a claimed event would stay in progress for ever)",
    "replayGuard",
    { seen: () => false, claim: () => "claimed" },
    /needs complete\(eventId\) too/,
  ),
  receiver("maxBodyBytes NaN", "maxBodyBytes", NaN, /maxBodyBytes must be a positive whole number/),
];

// ---- the client's endpoint fields and options ----

const endpoint = (name: string, input: Record<string, unknown>, field: string, reason?: RegExp): ClientEndpointCase => ({
  via: "client endpoint",
  name,
  input: { url: "https://example.com/hooks", events: ["payment.succeeded"], ...input },
  field,
  reason,
});

const CLIENT_ENDPOINT: HostileCase[] = [
  endpoint("a description starting with U+FEFF", { description: "\ufeffhello" }, "description", /U\+FEFF/),
  endpoint("a lone high surrogate in the description", { description: "caf\ud800" }, "description", /lone surrogate/),
  endpoint("a lone low surrogate in an event type", { events: ["payment.\udc00succeeded"] }, "events[0]", /lone surrogate/),
  endpoint("a lone surrogate in the url", { url: "https://example.com/\ud800" }, "url", /lone surrogate/),
  endpoint("a url starting with U+FEFF", { url: "\ufeffhttps://example.com/hooks" }, "url"),
  endpoint("a tab inside the url", { url: "https://example.com/ho\toks" }, "url", /tab or line break/),
  endpoint("a newline inside the url", { url: "https://exa\nmple.com/hooks" }, "url", /tab or line break/),
  endpoint("a carriage return inside the url", { url: "https://example.com/hooks\r" }, "url"),
  endpoint("a url with a leading space", { url: " https://example.com/hooks" }, "url"),
];

const CLIENT_OPTIONS: HostileCase[] = [
  {
    via: "client options",
    name: "an apiKey with a lone surrogate",
    options: { apiKey: "sk_\ud800", baseUrl: "http://127.0.0.1:1" },
    option: "apiKey",
  },
  {
    via: "client options",
    name: "an apiKey with a lone low surrogate",
    options: { apiKey: "\udfffsk", baseUrl: "http://127.0.0.1:1" },
    option: "apiKey",
  },
];

/** Every row, in the order above. */
export const HOSTILE_CASES: readonly HostileCase[] = [
  ...CLIENT_ENDPOINT,
  ...CLIENT_OPTIONS,
  ...EMULATOR,
  ...SEND,
  ...STRICT_JSON,
  ...PARSE_EVENT,
  ...CLIENT,
  ...REDACTION,
  ...RECEIVER,
];

/** The redaction rows (the test also sends them all at once through one real client). */
export const REDACTION_CASES: readonly RedactionCase[] = REDACTION;
