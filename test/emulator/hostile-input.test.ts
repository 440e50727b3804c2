/**
 * Hostile input to the emulator: every case gets a clear 4xx naming what is wrong — never a
 * 500, a crash or a silent change — and the emulator keeps answering afterwards.
 */
import { isUtf8 } from "node:buffer";
import { PROBLEM_CONTENT_TYPE, Problem } from "../../schemas";
import { firstInvalidUtf8 } from "../../emulator/body";
import { startEmulator, type Emulator } from "../../emulator";
import { call, endpointForm, message, type CallOptions } from "./helpers";

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ deliveryRetrySchedule: [] });
});
afterAll(() => emulator.close());

const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
const batchWithModel = (model: string) =>
  `{"stream":"transactional","messages":[{"tos":["+254712345678"],"template":{"id":"t","model":${model}}}]}`;
const rawJson = (body: string | Buffer): CallOptions => ({ body, headers: { "content-type": "application/json" } });
const rawForm = (body: string | Buffer): CallOptions => ({ body, headers: { "content-type": "application/x-www-form-urlencoded" } });

interface Case {
  name: string;
  path: string;
  options: CallOptions;
  status: number;
  title: string;
  /** A field `errors` must name. */
  field?: string;
}

const CASES: Case[] = [
  // prototype keys
  {
    name: "__proto__ at the top of a batch",
    path: "/v1/message_batches",
    options: rawJson(`{"stream":"transactional","messages":[{"tos":["+254712345678"],"body":"x"}],"__proto__":{"admin":true}}`),
    status: 400,
    title: "validation_failed",
    field: '["__proto__"]',
  },
  {
    name: "__proto__ in a message",
    path: "/v1/message_batches",
    options: rawJson(`{"stream":"transactional","messages":[{"tos":["+254712345678"],"body":"x","__proto__":{"body":"y"}}]}`),
    status: 400,
    title: "validation_failed",
    field: 'messages[0]["__proto__"]',
  },
  {
    name: "constructor in a message",
    path: "/v1/message_batches",
    options: rawJson(`{"stream":"transactional","messages":[{"tos":["+254712345678"],"body":"x","constructor":1}]}`),
    status: 400,
    title: "validation_failed",
    field: "messages[0].constructor",
  },
  {
    name: "prototype at the top of a batch",
    path: "/v1/message_batches",
    options: rawJson(`{"stream":"transactional","messages":[{"tos":["+254712345678"],"body":"x"}],"prototype":{}}`),
    status: 400,
    title: "validation_failed",
    field: "prototype",
  },
  {
    name: "__proto__ in a template model (zod would drop it)",
    path: "/v1/message_batches",
    options: rawJson(batchWithModel(`{"name":"x","__proto__":{"polluted":1}}`)),
    status: 400,
    title: "validation_failed",
    field: 'messages[0].template.model["__proto__"]',
  },
  {
    name: "__proto__ in /_emulator/faults",
    path: "/_emulator/faults",
    options: rawJson(`{"failureRate":0,"__proto__":{"failureRate":1}}`),
    status: 400,
    title: "validation_failed",
    field: '["__proto__"]',
  },
  {
    name: "constructor in /_emulator/faults",
    path: "/_emulator/faults",
    options: rawJson(`{"failureRate":0,"constructor":{"x":1}}`),
    status: 400,
    title: "validation_failed",
    field: "constructor",
  },
  {
    name: "__proto__ in event data",
    path: "/_emulator/events",
    options: rawJson(`{"type":"payment.succeeded","data":{"__proto__":{"x":1}}}`),
    status: 400,
    title: "validation_failed",
    field: 'data["__proto__"]',
  },
  {
    name: "__proto__ in /_emulator/events",
    path: "/_emulator/events",
    options: rawJson(`{"type":"payment.succeeded","__proto__":{}}`),
    status: 400,
    title: "validation_failed",
    field: '["__proto__"]',
  },
  {
    name: "a form field named __proto__",
    path: "/v1/webhooks/endpoints",
    options: rawForm(`${endpointForm()}&__proto__=x`),
    status: 400,
    title: "validation_failed",
    field: '["__proto__"]',
  },
  {
    name: "a form field named constructor",
    path: "/v1/webhooks/endpoints",
    options: rawForm(`${endpointForm()}&constructor=x`),
    status: 400,
    title: "validation_failed",
    field: "constructor",
  },
  {
    name: "a form field named prototype, twice",
    path: "/v1/webhooks/endpoints",
    options: rawForm(`${endpointForm()}&prototype=x&prototype=y`),
    status: 400,
    title: "validation_failed",
    field: "prototype",
  },
  // nesting
  {
    name: "a template model nested 50,000 deep",
    path: "/v1/message_batches",
    options: rawJson(batchWithModel(deep(50_000))),
    status: 400,
    title: "validation_failed",
    field: "messages[0].template.model",
  },
  {
    name: "a template model one level over the limit (33 in all)",
    path: "/v1/message_batches",
    options: rawJson(batchWithModel(deep(29))),
    status: 400,
    title: "validation_failed",
    field: "messages[0].template.model",
  },
  {
    name: "event data nested 10,000 deep",
    path: "/_emulator/events",
    options: rawJson(`{"type":"payment.succeeded","data":${deep(10_000)}}`),
    status: 400,
    title: "validation_failed",
    field: "data",
  },
  {
    name: "an array nested 100,000 deep",
    path: "/v1/message_batches",
    options: rawJson(`${"[".repeat(100_000)}${"]".repeat(100_000)}`),
    status: 400,
    title: "validation_failed",
    field: "[0]",
  },
  // numbers JSON cannot carry back
  {
    name: "1e400 (Infinity once parsed) in a model",
    path: "/v1/message_batches",
    options: rawJson(batchWithModel(`{"amount":1e400}`)),
    status: 400,
    title: "validation_failed",
    field: "messages[0].template.model.amount",
  },
  {
    name: "-1e400 in event data",
    path: "/_emulator/events",
    options: rawJson(`{"type":"payment.succeeded","data":{"n":-1e400}}`),
    status: 400,
    title: "validation_failed",
    field: "data.n",
  },
  {
    name: "1e400 as a fault rate",
    path: "/_emulator/faults",
    options: rawJson(`{"failureRate":1e400}`),
    status: 400,
    title: "validation_failed",
    field: "failureRate",
  },
  // encodings
  {
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
  },
  {
    name: "a lone continuation byte in event JSON",
    path: "/_emulator/events",
    options: rawJson(Buffer.from([0x7b, 0x80, 0x7d])),
    status: 400,
    title: "malformed_json",
  },
  {
    name: "raw invalid UTF-8 in a form body",
    path: "/v1/webhooks/endpoints",
    options: rawForm(Buffer.concat([Buffer.from(`${endpointForm()}&description=caf`), Buffer.from([0xe9])])),
    status: 400,
    title: "malformed_form",
  },
  {
    name: "percent-encoded invalid UTF-8 in a form value",
    path: "/v1/webhooks/endpoints",
    options: rawForm(`${endpointForm()}&description=caf%E9`),
    status: 400,
    title: "malformed_form",
  },
  {
    name: "percent-encoded invalid UTF-8 in a form name",
    path: "/v1/webhooks/endpoints",
    options: rawForm(`${endpointForm()}&%FF=1`),
    status: 400,
    title: "malformed_form",
  },
  {
    name: "an overlong encoding of '/' in a form value",
    path: "/v1/webhooks/endpoints",
    options: rawForm(`url=https:%C0%AF%C0%AFexample.com&events%5B%5D=payment.succeeded`),
    status: 400,
    title: "malformed_form",
  },
  // the JSON reading rule (schemas/strict-json.ts): duplicate keys and inexact numbers
  {
    name: "a duplicate key in a message (the last would win)",
    path: "/v1/message_batches",
    options: rawJson(`{"stream":"transactional","messages":[{"tos":["+254712345678"],"body":"SEND THIS","body":"not this"}]}`),
    status: 400,
    title: "validation_failed",
    field: "messages[0].body",
  },
  {
    name: "a duplicate stream at the top of a batch",
    path: "/v1/message_batches",
    options: rawJson(`{"stream":"transactional","stream":"marketing","messages":[{"tos":["+254712345678"],"body":"x"}]}`),
    status: 400,
    title: "validation_failed",
    field: "stream",
  },
  {
    name: "a duplicate key in event data",
    path: "/_emulator/events",
    options: rawJson(`{"type":"payment.succeeded","data":{"amount":1,"amount":2}}`),
    status: 400,
    title: "validation_failed",
    field: "data.amount",
  },
  {
    name: "a duplicate failureRate in /_emulator/faults",
    path: "/_emulator/faults",
    options: rawJson(`{"failureRate":0,"failureRate":1}`),
    status: 400,
    title: "validation_failed",
    field: "failureRate",
  },
  {
    name: "an integer above 2^53 in a model (a double rounds it)",
    path: "/v1/message_batches",
    options: rawJson(batchWithModel(`{"id":9007199254740993}`)),
    status: 400,
    title: "validation_failed",
    field: "messages[0].template.model.id",
  },
  {
    name: "1e-400 (0 once parsed) in a model",
    path: "/v1/message_batches",
    options: rawJson(batchWithModel(`{"x":1e-400}`)),
    status: 400,
    title: "validation_failed",
    field: "messages[0].template.model.x",
  },
  {
    name: "-0 in event data",
    path: "/_emulator/events",
    options: rawJson(`{"type":"payment.succeeded","data":{"n":-0}}`),
    status: 400,
    title: "validation_failed",
    field: "data.n",
  },
  {
    name: "more digits than a double holds in a model",
    path: "/v1/message_batches",
    options: rawJson(batchWithModel(`{"x":0.10000000000000001}`)),
    status: 400,
    title: "validation_failed",
    field: "messages[0].template.model.x",
  },
  // charsets other than UTF-8
  {
    name: "a JSON body declared charset=iso-8859-1",
    path: "/v1/message_batches",
    options: {
      body: Buffer.from(`{"stream":"transactional","messages":[{"tos":["+254712345678"],"body":"caf\u00e9"}]}`, "latin1"),
      headers: { "content-type": "application/json; charset=iso-8859-1" },
    },
    status: 415,
    title: "unsupported_media_type",
  },
  {
    name: "a form body declared charset=windows-1252",
    path: "/v1/webhooks/endpoints",
    options: { body: endpointForm().toString(), headers: { "content-type": "application/x-www-form-urlencoded; charset=windows-1252" } },
    status: 415,
    title: "unsupported_media_type",
  },
  {
    name: "a UTF-16LE JSON body with its byte order mark",
    path: "/v1/message_batches",
    options: rawJson(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`{"stream":"transactional"}`, "utf16le")])),
    status: 415,
    title: "unsupported_media_type",
  },
  {
    name: "a UTF-16LE JSON body without a mark",
    path: "/_emulator/events",
    options: rawJson(Buffer.from(`{"type":"payment.succeeded"}`, "utf16le")),
    status: 415,
    title: "unsupported_media_type",
  },
  // per-field limits of endpoints (emulator/README.md)
  {
    name: "an endpoint description over 1,024 bytes",
    path: "/v1/webhooks/endpoints",
    options: rawForm(endpointForm({ description: "d".repeat(5 * 1024 * 1024) }).toString()),
    status: 400,
    title: "validation_failed",
    field: "description",
  },
  {
    name: "an endpoint url over 8,192 bytes",
    path: "/v1/webhooks/endpoints",
    options: rawForm(endpointForm({ url: `https://example.com/${"u".repeat(9000)}` }).toString()),
    status: 400,
    title: "validation_failed",
    field: "url",
  },
  {
    name: "65 event types on an endpoint",
    path: "/v1/webhooks/endpoints",
    options: rawForm(endpointForm({ "events[]": Array.from({ length: 65 }, (_, i) => `type.${i}`) }).toString()),
    status: 400,
    title: "validation_failed",
    field: "events",
  },
  {
    name: "metadata on create (not a create field)",
    path: "/v1/webhooks/endpoints",
    options: rawForm(`${endpointForm()}&metadata%5Bk%5D=v`),
    status: 400,
    title: "validation_failed",
    field: "metadata[k]",
  },
  // shapes
  { name: "a JSON array as a batch", path: "/v1/message_batches", options: rawJson("[]"), status: 400, title: "validation_failed" },
  { name: "JSON null as an event", path: "/_emulator/events", options: rawJson("null"), status: 400, title: "validation_failed" },
  {
    name: "a sparse-looking array with null in messages",
    path: "/v1/message_batches",
    options: rawJson(`{"stream":"transactional","messages":[{"tos":["+254712345678"],"body":"x"},null]}`),
    status: 400,
    title: "validation_failed",
    field: "messages[1]",
  },
  {
    name: "a repeated version header",
    path: "/v1/message_batches",
    options: { ...rawJson("{}"), headers: { "content-type": "application/json", "x-service-version": "2024-06-01, 2024-06-02" } },
    status: 400,
    title: "invalid_version_header",
  },
  {
    name: "limit=0 on /_emulator/batches",
    path: "/_emulator/batches?limit=0",
    options: {},
    status: 400,
    title: "validation_failed",
    field: "limit",
  },
  {
    name: "limit=-1 on /_emulator/batches",
    path: "/_emulator/batches?limit=-1",
    options: {},
    status: 400,
    title: "validation_failed",
    field: "limit",
  },
  {
    name: "limit twice on /_emulator/batches",
    path: "/_emulator/batches?limit=1&limit=2",
    options: {},
    status: 400,
    title: "validation_failed",
    field: "limit",
  },
  {
    name: "after=__proto__ on /_emulator/batches",
    path: "/_emulator/batches?after=__proto__",
    options: {},
    status: 400,
    title: "validation_failed",
    field: "after",
  },
  {
    name: "redelivering delivery 'constructor'",
    path: "/_emulator/deliveries/constructor/retry",
    options: { json: {} },
    status: 404,
    title: "not_found",
  },
  {
    name: "redelivering delivery '__proto__'",
    path: "/_emulator/deliveries/__proto__/retry",
    options: { json: {} },
    status: 404,
    title: "not_found",
  },
  { name: "a route named toString", path: "/_emulator/toString", options: {}, status: 404, title: "not_found" },
];

describe("hostile input to the emulator", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const result = await call(emulator, c.path, c.options);
    expect(result.status).toBe(c.status);
    expect(String(result.headers["content-type"])).toContain(PROBLEM_CONTENT_TYPE);
    const problem = Problem.parse(result.json);
    expect(problem.title).toBe(c.title);
    expect(problem.type).toBe(`urn:messaging:problem:${c.title}`);
    // The field named, or (for nesting) a path inside it.
    if (c.field !== undefined)
      expect(
        Object.keys(problem.errors ?? {}).some((key) => key === c.field || key.startsWith(`${c.field}.`) || key.startsWith(`${c.field}[`)),
      ).toBe(true);
    if (c.status === 415) expect(problem.detail).toMatch(/UTF-8/);
    // Nothing was recorded, and the emulator still answers.
    expect(emulator.batches()).toEqual([]);
    expect(emulator.endpoints()).toEqual([]);
    expect((await call(emulator, "/_emulator/batches")).status).toBe(200);
  });
});

describe("what hostile-looking input the emulator accepts, unchanged", () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator({ deliveryRetrySchedule: [] });
  });
  afterAll(() => emulator.close());

  it("keeps constructor and prototype keys of a model as data, exactly", async () => {
    const model = { constructor: "c", prototype: { toString: "t" }, hasOwnProperty: 1, name: "x" };
    const sent = await call(emulator, "/v1/message_batches", {
      json: { stream: "transactional", messages: [{ tos: ["+254712345678"], template: { id: "t", model } }] },
    });
    expect(sent.status).toBe(200);
    const listed = await call(emulator, `/_emulator/batches?limit=1&after=${sent.json.id}`);
    expect(listed.json).toEqual([]);
    const all = await call(emulator, "/_emulator/batches");
    expect(all.text).toContain(JSON.stringify(model));
    expect(all.json.at(-1).messages[0].template.model).toEqual(model);
    expect(Object.keys(emulator.batches().at(-1)!.messages[0].template!.model)).toEqual(Object.keys(model));
  });

  it("accepts a model nested exactly to the limit", async () => {
    // body → messages → message → template is 4 levels; a model of 28 makes 32.
    const result = await call(emulator, "/v1/message_batches", rawJson(batchWithModel(deep(28))));
    expect(result.status).toBe(200);
  });

  it("keeps non-ASCII form values exactly (percent-encoded or raw)", async () => {
    const form = endpointForm({ description: "café ☕ 日本" });
    const created = await call(emulator, "/v1/webhooks/endpoints", { form });
    expect(created.status).toBe(200);
    expect(created.json.description).toBe("café ☕ 日本");
    const raw = await call(emulator, "/v1/webhooks/endpoints", rawForm(`${endpointForm()}&description=caf\u00e9+ok`));
    expect(raw.json.description).toBe("café ok");
  });

  it("uses an Idempotency-Key of __proto__ like any other key", async () => {
    const json = { stream: "transactional", messages: [message(1)] };
    const first = await call(emulator, "/v1/message_batches", { json, headers: { "idempotency-key": "__proto__" } });
    const again = await call(emulator, "/v1/message_batches", { json, headers: { "idempotency-key": "__proto__" } });
    expect(first.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(again.headers["idempotent-replayed"]).toBe("true");
  });
});

describe("firstInvalidUtf8 (where a body's UTF-8 breaks)", () => {
  it.each([
    ["ASCII", [0x61, 0x62], -1],
    ["é, €, 𝄞", [...Buffer.from("é€𝄞")], -1],
    ["a lone continuation byte", [0x61, 0x80], 1],
    ["a truncated sequence", [0x61, 0xe2, 0x82], 1],
    ["an overlong '/'", [0xc0, 0xaf], 0],
    ["an overlong 3-byte", [0xe0, 0x80, 0xaf], 0],
    ["a UTF-16 surrogate", [0x61, 0xed, 0xa0, 0x80], 1],
    ["above U+10FFFF", [0xf4, 0x90, 0x80, 0x80], 0],
    ["0xFF", [0x61, 0x62, 0xff], 2],
  ])("%s", (_name, bytes, offset) => {
    const buffer = Buffer.from(bytes as number[]);
    expect(firstInvalidUtf8(buffer)).toBe(offset);
    expect(isUtf8(buffer)).toBe(offset === -1);
  });
});
