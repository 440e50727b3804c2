/**
 * The emulator's own operations (`/_emulator/…`: listings, events, redelivery, faults) as
 * data, each defined once, as `schemas/operations.ts` does for the service's API: method,
 * path template and its parameters, query, request body and answer, as zod schemas. The
 * router registers one handler per row (`routes/emulator-*.ts` name theirs), and
 * `EmulatorClient` (`emulator-client.ts`) sends every row through one method body and parses
 * each answer with the row's schema. The inspector page (`GET /_emulator/`) is HTML for a
 * browser, not an operation, and is routed beside these.
 */
import { z } from "zod";
import { EventData, EventType, JsonObject, Message, MessagingEvent, WebhookEndpointObject } from "../schemas";
import type { Assert, SameType } from "../schemas/same-type";
import type { RecordedBatch } from "./batch-store";
import { FAULT_KINDS } from "./faults";
import { RandomFaults, ScriptedFault, ScriptedFaults, type FaultSettings } from "./fault-injector";
import type { Delivery, RecordedEvent, RecordedWebhookEndpoint } from "./store";

/** Largest `limit` of `GET /_emulator/batches`. */
export const MAX_BATCH_PAGE = 10_000;

/**
 * Largest body of `POST /_emulator/events`: 64 KiB. Events are kept (for the inspector and for
 * redelivery), so their size is what bounds the emulator's memory here.
 */
export const MAX_EVENT_BODY_BYTES = 64 * 1024;

/** Body of `POST /_emulator/events`. */
export const EmitEventRequest = z.strictObject({
  /** Event type, e.g. `payment.succeeded`. */
  type: EventType,
  /**
   * With an `object` member: the event's `data` itself (`{ object, previous? }`, `previous`
   * defaulting to null). Without: the related object, which becomes `data.object`. `{}` when omitted.
   */
  data: JsonObject.superRefine((data, ctx) => {
    if (!Object.prototype.hasOwnProperty.call(data, "object")) return;
    const parsed = EventData.safeParse(data);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", path: [...issue.path], message: issue.message });
    }
  }).optional(),
});

/** A webhook endpoint as the emulator records and lists it: every field of spec §2.2 present. */
export const RecordedWebhookEndpointSchema = z.object({
  id: WebhookEndpointObject.shape.id,
  secret: WebhookEndpointObject.shape.secret,
  created: z.string(),
  updated: z.string(),
  format: z.string(),
  workspace: z.string(),
  live: z.boolean(),
  etag: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  status: z.string(),
  url: z.string(),
  metadata: z.record(z.string(), z.string()),
});

/** One delivery attempt, as `GET /_emulator/deliveries` lists it (see `Delivery`). */
export const DeliverySchema = z.object({
  id: z.string(),
  attempt: z.number(),
  trigger: z.enum(["initial", "scheduled", "manual"]),
  endpointId: z.string(),
  eventId: z.string(),
  type: z.string(),
  url: z.string(),
  format: z.string(),
  status: z.number().nullable(),
  ok: z.boolean(),
  error: z.string().optional(),
  responseBody: z.string().optional(),
  responseBytes: z.number().optional(),
  attemptedAt: z.string(),
  durationMs: z.number(),
  outcome: z.enum(["delivered", "retry_scheduled", "failed"]),
  nextAttemptAt: z.string().optional(),
});

/** An emitted event and the ids of its deliveries (see `RecordedEvent`). */
export const RecordedEventSchema = z.object({ event: MessagingEvent, deliveryIds: z.array(z.string()).readonly() });

/** A stored batch as listed (see `RecordedBatch`). */
export const RecordedBatchSchema = z.object({ id: z.string(), stream: z.string(), messages: z.array(Message), created: z.string() });

/** The fault settings in force (see `FaultSettings`). */
export const FaultSettingsSchema = z.object({
  failureRate: z.number(),
  seed: z.number(),
  kinds: z.array(z.enum(FAULT_KINDS)).readonly(),
  script: z.array(ScriptedFault).readonly().optional(),
});

// The answers' schemas parse to exactly the types the store records: neither can drift.
type _Endpoint = Assert<SameType<RecordedWebhookEndpoint, z.output<typeof RecordedWebhookEndpointSchema>>>;
type _Delivery = Assert<SameType<Delivery, z.output<typeof DeliverySchema>>>;
type _Event = Assert<SameType<RecordedEvent, z.output<typeof RecordedEventSchema>>>;
type _Batch = Assert<SameType<RecordedBatch, z.output<typeof RecordedBatchSchema>>>;
type _Faults = Assert<SameType<FaultSettings, z.output<typeof FaultSettingsSchema>>>;

const PAGE_LIMIT_RULE = { error: `expected a whole number from 1 to ${MAX_BATCH_PAGE}` };

/** `limit` of `GET /_emulator/batches`, as the query string carries it: 1–10,000. */
const PageLimit = z
  .string()
  .regex(/^\d{1,6}$/, PAGE_LIMIT_RULE)
  .transform(Number)
  .pipe(z.number().min(1, PAGE_LIMIT_RULE).max(MAX_BATCH_PAGE, PAGE_LIMIT_RULE));

/** A count sent in a header, e.g. `X-Emulator-Batches-Accepted`. */
const CountHeader = z.string().regex(/^\d+$/).transform(Number);

/** `after` of `GET /_emulator/deliveries`, as the query string carries it. */
const AttemptCount = z
  .string()
  .regex(/^\d{1,15}$/, { error: "expected a whole number: X-Emulator-Attempts-Recorded of an earlier listing" })
  .transform(Number);

/** One of the emulator's own operations. */
export interface EmulatorOperation {
  readonly method: "GET" | "POST";
  /** Path template; `{name}` stands for one path segment, named in `params`. */
  readonly path: string;
  /** The path template's parameters (`{}` for none). */
  readonly params: z.ZodType<Readonly<Record<string, string>>>;
  /**
   * The query string's parameters, each given at most once, as text (`{}` for none). The
   * emulator parses the query with it; the client checks what it sends with it.
   */
  readonly query: z.ZodObject<z.core.$ZodShape, z.core.$strict>;
  /** The JSON body; undefined: none is read (a POST still sends `Content-Type: application/json`, see `retryDelivery`). */
  readonly request?: z.ZodType;
  /** The answer's JSON body (200). */
  readonly response: z.ZodType;
  /** Headers the answer carries, by lower-case name, when it has some to read. */
  readonly headers?: z.ZodType<Record<string, unknown>>;
}

const NONE = z.strictObject({});

export const EMULATOR_OPERATIONS = {
  /** `GET /_emulator/endpoints`: the webhook endpoints created, in order. */
  listEndpoints: {
    method: "GET",
    path: "/_emulator/endpoints",
    params: NONE,
    query: NONE,
    response: z.array(RecordedWebhookEndpointSchema),
  },
  /**
   * `GET /_emulator/batches[?limit=N][&after=ID]`: the stored batches, oldest first, with the
   * totals since start in headers.
   */
  listBatches: {
    method: "GET",
    path: "/_emulator/batches",
    params: NONE,
    query: z.strictObject({ limit: PageLimit.optional(), after: z.string().optional() }),
    response: z.array(RecordedBatchSchema),
    headers: z.object({
      "x-emulator-batches-accepted": CountHeader,
      "x-emulator-messages-accepted": CountHeader,
      "x-emulator-stored-bytes": CountHeader,
    }),
  },
  /**
   * `GET /_emulator/deliveries[?event=evt_…][&after=N]`: every delivery attempt kept, in order;
   * with `after` (an earlier listing's count of attempts recorded), only those recorded since.
   */
  listDeliveries: {
    method: "GET",
    path: "/_emulator/deliveries",
    params: NONE,
    query: z.strictObject({ event: z.string().optional(), after: AttemptCount.optional() }),
    response: z.array(DeliverySchema),
    headers: z.object({ "x-emulator-attempts-recorded": CountHeader }),
  },
  /** `POST /_emulator/deliveries/{id}/retry`: one more attempt of a delivery, now. */
  retryDelivery: {
    method: "POST",
    path: "/_emulator/deliveries/{id}/retry",
    params: z.strictObject({ id: z.string().min(1) }),
    query: NONE,
    response: DeliverySchema,
  },
  /** `GET /_emulator/events`: the events emitted (the most recent 1,000), oldest first. */
  listEvents: { method: "GET", path: "/_emulator/events", params: NONE, query: NONE, response: z.array(RecordedEventSchema) },
  /**
   * `POST /_emulator/events`: builds an event and delivers it; answers each delivery's first
   * attempt, the event id and the retry schedule (seconds).
   */
  emitEvent: {
    method: "POST",
    path: "/_emulator/events",
    params: NONE,
    query: NONE,
    request: EmitEventRequest,
    response: z.array(DeliverySchema),
    headers: z.object({
      "x-emulator-event-id": z.string(),
      "x-emulator-retry-schedule": z.string().transform((text) => (text === "" ? [] : text.split(",").map(Number))),
    }),
  },
  /** `GET /_emulator/faults`: the settings in force, and what each /v1 request met since they were set. */
  getFaults: {
    method: "GET",
    path: "/_emulator/faults",
    params: NONE,
    query: NONE,
    response: FaultSettingsSchema.extend({ log: z.array(ScriptedFault) }),
  },
  /** `POST /_emulator/faults`: sets fault injection for /v1 requests; answers the settings in force. */
  setFaults: {
    method: "POST",
    path: "/_emulator/faults",
    params: NONE,
    query: NONE,
    // Either form; the emulator parses with the one the body means (`parseFaultSettings`: a
    // script when it has `script`), so its errors name that form's fields.
    request: z.union([ScriptedFaults, RandomFaults]),
    response: FaultSettingsSchema,
  },
} as const satisfies Record<string, EmulatorOperation>;

export type EmulatorOperationName = keyof typeof EMULATOR_OPERATIONS;
