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
import { EventData, EventType, JsonObject, Message, MessagingEvent, WebhookEndpointCreate, WebhookEndpointObject } from "../../schemas";
import { FaultSettingsSchema, RandomFaults, ScriptedFault, ScriptedFaults, type FaultSettings } from "../faults";

export type { FaultSettings };

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

/** The wire object's fields, each present and non-null. */
type Present<S> = { [K in keyof S]: S[K] extends z.ZodOptional<z.ZodNullable<infer T>> ? T : S[K] };
function present<S extends z.ZodRawShape>(shape: S): Present<S> {
  const unwrapped = (field: z.ZodType): z.ZodType =>
    field instanceof z.ZodOptional && field.unwrap() instanceof z.ZodNullable
      ? ((field.unwrap() as z.ZodNullable).unwrap() as z.ZodType)
      : field;
  return Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, unwrapped(field as z.ZodType)])) as unknown as Present<S>;
}

type CreateShape = typeof WebhookEndpointCreate.shape;
type WireShape = typeof WebhookEndpointObject.shape;
type OptionalCreateKey = { [K in keyof CreateShape]: CreateShape[K] extends z.ZodOptional ? K : never }[keyof CreateShape];

/** The create's optional fields (`description`), each null when not given, as the wire object has them. */
const optionalCreateFields = Object.fromEntries(
  Object.entries(WebhookEndpointCreate.shape)
    .filter(([, field]) => field instanceof z.ZodOptional)
    .map(([key]) => [key, (WebhookEndpointObject.shape[key as keyof WireShape] as z.ZodOptional).unwrap()]),
) as unknown as { [K in OptionalCreateKey]: ReturnType<WireShape[K]["unwrap"]> };

/** The schema of {@link EmulatedWebhookEndpoint}: every field of the wire object present; an optional create field null when not given. */
export const EmulatedWebhookEndpointSchema = z.object({ ...present(WebhookEndpointObject.shape), ...optionalCreateFields });
/**
 * A webhook endpoint as the emulator creates, records and lists it: every field of spec §2.2
 * present; only `description` may be null. (The client's type requires only `id` and `secret`,
 * since a real service may leave others out; the emulator always sends them all.) The values
 * the emulator gives each field are in `routes/webhook-endpoints.ts`.
 */
export type EmulatedWebhookEndpoint = Readonly<z.output<typeof EmulatedWebhookEndpointSchema>>;

/** The schema of {@link Delivery}. */
export const DeliverySchema = z.object({
  /** Delivery id, prefix `dlv_`: the same for every attempt of this event to this endpoint. */
  id: z.string(),
  /** 1 for the first attempt, then 2, 3, … (manual redeliveries included). */
  attempt: z.number(),
  /** Why the attempt was made: the event was emitted, a scheduled retry, or `POST …/retry`. */
  trigger: z.enum(["initial", "scheduled", "manual"]),
  /** The endpoint delivered to (`we_…`). */
  endpointId: z.string(),
  /** The event delivered (`evt_…`): the same on every attempt. */
  eventId: z.string(),
  /** The event type. */
  type: z.string(),
  /** The URL posted to. */
  url: z.string(),
  /** The payload format used: `basic` or `cloudEvents`. */
  format: z.string(),
  /** The receiver's HTTP status, or null when no response came (refused, timed out…). */
  status: z.number().nullable(),
  /** True when the receiver answered 2xx. */
  ok: z.boolean(),
  /** Why the attempt failed without a status, when it did. */
  error: z.string().optional(),
  /**
   * What the receiver answered, when it did: the body's first 4 KiB (`RESPONSE_BODY_MAX_BYTES`)
   * decoded as UTF-8. Counted in the byte budget with the attempt.
   */
  responseBody: z.string().optional(),
  /** Bytes of the receiver's whole answer (more than `responseBody` holds when it was cut). */
  responseBytes: z.number().optional(),
  /** When the attempt started, ISO 8601 UTC. */
  attemptedAt: z.string(),
  /** How long it took, in milliseconds, until the answer (or the failure). */
  durationMs: z.number(),
  /**
   * What the attempt led to: `delivered` (the receiver answered 2xx: the delivery is done),
   * `retry_scheduled` (it failed in a way that may pass; another attempt is scheduled,
   * `nextAttemptAt`) or `failed` (a final status, or the schedule is used up: no attempt follows).
   */
  outcome: z.enum(["delivered", "retry_scheduled", "failed"]),
  /** When the next attempt is due, ISO 8601 UTC, when `outcome` is `retry_scheduled`. */
  nextAttemptAt: z.string().optional(),
});
/**
 * One attempt to deliver an event to an endpoint, as `GET /_emulator/deliveries` lists it.
 * Every attempt of one delivery (one event to one endpoint) has the same `id`.
 */
export type Delivery = Readonly<z.output<typeof DeliverySchema>>;

/** What an attempt led to (see {@link Delivery}'s `outcome`). */
export type AttemptOutcome = Delivery["outcome"];

/** The schema of {@link RecordedEvent}. */
export const RecordedEventSchema = z.object({
  /** The event as delivered (basic format). */
  event: MessagingEvent,
  /** The ids of its deliveries, one per subscribed endpoint. */
  deliveryIds: z.array(z.string()).readonly(),
});
/** An event emitted through the emulator, as the inspector page and `GET /_emulator/events` list it. */
export type RecordedEvent = Readonly<z.output<typeof RecordedEventSchema>>;

/** The schema of {@link RecordedBatch}. */
export const RecordedBatchSchema = z.object({
  /** Batch id, prefix `msba_`. */
  id: z.string(),
  /** The stream it was sent on. */
  stream: z.string(),
  /** The messages exactly as accepted (recipients plus body or template). */
  messages: z.array(Message),
  /** When it was accepted, ISO 8601 UTC. */
  created: z.string(),
});
/** A batch the emulator accepted, as `GET /_emulator/batches` lists it. */
export type RecordedBatch = Readonly<z.output<typeof RecordedBatchSchema>>;

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
    response: z.array(EmulatedWebhookEndpointSchema),
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
