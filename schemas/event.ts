import { z } from "zod";
import type * as wire from "./wire-types.generated";

export { KNOWN_EVENT_TYPES, type KnownEventType, type KnownEvent } from "./types";

/** `data` of an event: the related object and, for changes, its previous values. */
export const EventData = z.looseObject({
  object: z.record(z.string(), z.unknown()),
  previous: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type EventData = wire.EventData;

/** The API request that caused the event. */
export const EventRequest = z.looseObject({
  id: z.string().nullable().optional(),
  idempotency_key: z.string().nullable().optional(),
});
export type EventRequest = wire.EventRequest;

/**
 * The basic event object (spec §2.3). The sample payload has no `type`, so it is optional.
 */
export const MessagingEvent = z.looseObject({
  id: z.string().min(1),
  type: z.string().optional(),
  created: z.string(),
  data: EventData,
  request: EventRequest.optional(),
});
export type MessagingEvent = wire.MessagingEvent;

/**
 * CloudEvents 1.0, structured JSON mode: the event object travels in `data`.
 * Our assumption for the `cloudEvents` format (the spec does not show its payload).
 */
export const CloudEventEnvelope = z.looseObject({
  specversion: z.literal("1.0"),
  id: z.string().min(1),
  source: z.string().min(1),
  type: z.string().min(1),
  time: z.string().optional(),
  datacontenttype: z.string().optional(),
  data: MessagingEvent,
});
export type CloudEventEnvelope = wire.CloudEventEnvelope;
