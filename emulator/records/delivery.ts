import { z } from "zod";

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
