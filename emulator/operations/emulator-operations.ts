/**
 * The emulator's own operations (`/_emulator/…`) as data, as `schemas/operations.ts` is for the
 * service's API: the router registers one handler per row, and `EmulatorClient` sends each.
 */
import { z } from "zod";
import { EventData, EventType, JsonObject } from "../../schemas";
import { NO_PARAMS, type Operation } from "../../schemas/operations";
import { FaultSettingsSchema, RandomFaults, ScriptedFault, ScriptedFaults, type FaultSettings } from "../faults";
import { DeliverySchema, EmulatedWebhookEndpointSchema, RecordedBatchSchema, RecordedEventSchema } from "../records";

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
