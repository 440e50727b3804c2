import { z } from "zod";

/** Event types the spec names. Any other type parses as a generic event. */
export const KNOWN_EVENT_TYPES = ["identity.verification.created", "payment.succeeded"] as const;
export type KnownEventType = (typeof KNOWN_EVENT_TYPES)[number];

/** `data` of an event: the related object and, for changes, its previous values. */
export const EventData = z.looseObject({
  object: z.record(z.string(), z.unknown()),
  previous: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type EventData = z.infer<typeof EventData>;

/** The API request that caused the event. */
export const EventRequest = z.looseObject({
  id: z.string().nullable().optional(),
  idempotency_key: z.string().nullable().optional(),
});

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
export type MessagingEvent = z.infer<typeof MessagingEvent>;

/** An event of a named type: `type` narrows it. */
export type KnownEvent = { [T in KnownEventType]: MessagingEvent & { type: T } }[KnownEventType];

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
export type CloudEventEnvelope = z.infer<typeof CloudEventEnvelope>;
