/**
 * The emulator's own operations (`/_emulator/…`) as data, as `schemas/operations.ts` is for the
 * service's API: the router registers one handler per row, and `EmulatorClient` sends each.
 */
import { z } from "zod";
import { EventData, EventType, JsonObject, Message, MessagingEvent, WebhookEndpointCreate, WebhookEndpointObject } from "../../schemas";
import { NO_PARAMS, type Operation } from "../../schemas/operations";
import { FaultSettingsSchema, RandomFaults, ScriptedFault, ScriptedFaults, type FaultSettings } from "../faults";

export type { FaultSettings };

export const MAX_BATCH_PAGE = 10_000;

/** Events are kept (for the inspector and redelivery), so their size bounds the emulator's memory. */
export const MAX_EVENT_BODY_BYTES = 64 * 1024;

export const EmitEventRequest = z.strictObject({
  type: EventType,
  /**
   * With an `object` member: the event's `data` itself. Without: the related object, which
   * becomes `data.object`. `{}` when omitted.
   */
  data: JsonObject.superRefine((data, ctx) => {
    if (!Object.prototype.hasOwnProperty.call(data, "object")) return;
    const parsed = EventData.safeParse(data);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", path: [...issue.path], message: issue.message });
    }
  }).optional(),
});

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

const optionalCreateFields = Object.fromEntries(
  Object.entries(WebhookEndpointCreate.shape)
    .filter(([, field]) => field instanceof z.ZodOptional)
    .map(([key]) => [key, (WebhookEndpointObject.shape[key as keyof WireShape] as z.ZodOptional).unwrap()]),
) as unknown as { [K in OptionalCreateKey]: ReturnType<WireShape[K]["unwrap"]> };

export const EmulatedWebhookEndpointSchema = z.object({ ...present(WebhookEndpointObject.shape), ...optionalCreateFields });
/**
 * A webhook endpoint as the emulator records it: every field of spec §2.2 present, an optional
 * create field null when not given. The client's type requires fewer: a real service may leave some out.
 */
export type EmulatedWebhookEndpoint = Readonly<z.output<typeof EmulatedWebhookEndpointSchema>>;

export const DeliverySchema = z.object({
  /** The same for every attempt of this event to this endpoint. */
  id: z.string(),
  /** From 1, manual redeliveries included. */
  attempt: z.number(),
  trigger: z.enum(["initial", "scheduled", "manual"]),
  endpointId: z.string(),
  eventId: z.string(),
  type: z.string(),
  url: z.string(),
  format: z.string(),
  /** Null when no response came (refused, timed out…). */
  status: z.number().nullable(),
  ok: z.boolean(),
  /** Why the attempt failed without a status. */
  error: z.string().optional(),
  /** The first 4 KiB of the receiver's answer, as UTF-8. */
  responseBody: z.string().optional(),
  /** Bytes of the whole answer. */
  responseBytes: z.number().optional(),
  attemptedAt: z.string(),
  durationMs: z.number(),
  /** `failed`: a final status, or the schedule is used up. */
  outcome: z.enum(["delivered", "retry_scheduled", "failed"]),
  nextAttemptAt: z.string().optional(),
});
/** One attempt to deliver an event to an endpoint, as `GET /_emulator/deliveries` lists it. */
export type Delivery = Readonly<z.output<typeof DeliverySchema>>;

export type AttemptOutcome = Delivery["outcome"];

export const RecordedEventSchema = z.object({
  /** The event as delivered (basic format). */
  event: MessagingEvent,
  deliveryIds: z.array(z.string()).readonly(),
});
/** An event emitted through the emulator. */
export type RecordedEvent = Readonly<z.output<typeof RecordedEventSchema>>;

export const RecordedBatchSchema = z.object({
  id: z.string(),
  stream: z.string(),
  /** The messages exactly as accepted. */
  messages: z.array(Message),
  created: z.string(),
});
/** A batch the emulator accepted. */
export type RecordedBatch = Readonly<z.output<typeof RecordedBatchSchema>>;

const PAGE_LIMIT_RULE = { error: `expected a whole number from 1 to ${MAX_BATCH_PAGE}` };

const PageLimit = z
  .string()
  .regex(/^\d{1,6}$/, PAGE_LIMIT_RULE)
  .transform(Number)
  .pipe(z.number().min(1, PAGE_LIMIT_RULE).max(MAX_BATCH_PAGE, PAGE_LIMIT_RULE));

const CountHeader = z.string().regex(/^\d+$/).transform(Number);

const AttemptCount = z
  .string()
  .regex(/^\d{1,15}$/, { error: "expected a whole number: X-Emulator-Attempts-Recorded of an earlier listing" })
  .transform(Number);

export const EMULATOR_OPERATIONS = {
  listEndpoints: {
    method: "GET",
    path: "/_emulator/endpoints",
    params: NO_PARAMS,
    encoding: "none",
    what: "endpoint listing",
    response: z.array(EmulatedWebhookEndpointSchema),
  },
  listBatches: {
    method: "GET",
    path: "/_emulator/batches",
    params: NO_PARAMS,
    encoding: "none",
    what: "batch listing",
    query: z.strictObject({ limit: PageLimit.optional(), after: z.string().optional() }),
    response: z.array(RecordedBatchSchema),
    headers: z.object({
      "x-emulator-batches-accepted": CountHeader,
      "x-emulator-messages-accepted": CountHeader,
      "x-emulator-stored-bytes": CountHeader,
    }),
  },
  /** `after`: an earlier listing's count of attempts recorded; only those recorded since are listed. */
  listDeliveries: {
    method: "GET",
    path: "/_emulator/deliveries",
    params: NO_PARAMS,
    encoding: "none",
    what: "delivery listing",
    query: z.strictObject({ event: z.string().optional(), after: AttemptCount.optional() }),
    response: z.array(DeliverySchema),
    headers: z.object({ "x-emulator-attempts-recorded": CountHeader }),
  },
  retryDelivery: {
    method: "POST",
    path: "/_emulator/deliveries/{id}/retry",
    params: z.strictObject({ id: z.string().min(1) }),
    encoding: "none",
    what: "delivery retry",
    response: DeliverySchema,
  },
  /** The most recent 1,000, oldest first. */
  listEvents: {
    method: "GET",
    path: "/_emulator/events",
    params: NO_PARAMS,
    encoding: "none",
    what: "event listing",
    response: z.array(RecordedEventSchema),
  },
  emitEvent: {
    method: "POST",
    path: "/_emulator/events",
    params: NO_PARAMS,
    encoding: "json",
    what: "event",
    request: EmitEventRequest,
    response: z.array(DeliverySchema),
    headers: z.object({
      "x-emulator-event-id": z.string(),
      "x-emulator-retry-schedule": z.string().transform((text) => (text === "" ? [] : text.split(",").map(Number))),
    }),
  },
  getFaults: {
    method: "GET",
    path: "/_emulator/faults",
    params: NO_PARAMS,
    encoding: "none",
    what: "fault settings request",
    response: FaultSettingsSchema.extend({ log: z.array(ScriptedFault) }),
  },
  setFaults: {
    method: "POST",
    path: "/_emulator/faults",
    params: NO_PARAMS,
    encoding: "json",
    what: "fault settings",
    // The emulator parses with the form the body means, so its errors name that form's fields.
    request: z.union([ScriptedFaults, RandomFaults]),
    response: FaultSettingsSchema,
  },
} as const satisfies Record<string, Operation>;

export type EmulatorOperationName = keyof typeof EMULATOR_OPERATIONS;
