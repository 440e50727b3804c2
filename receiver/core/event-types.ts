import { KNOWN_EVENT_TYPES, type KnownEvent, type KnownEventType, type MessagingEvent } from "../../schemas/types";

/** The event of one named type: `type` is that literal. */
export type EventOfType<T extends KnownEventType> = Extract<KnownEvent, { type: T }>;

/** `identity.verification.created`. The spec does not show its `data.object`; it stays a loose record. */
export type IdentityVerificationCreatedEvent = EventOfType<"identity.verification.created">;

/** `payment.succeeded`. The spec does not show its `data.object`; it stays a loose record. */
export type PaymentSucceededEvent = EventOfType<"payment.succeeded">;

/**
 * An event whose type is not one of the named ones, or absent (the spec's sample payload
 * has no `type`). Same fields as every event; `type` is `string | undefined`.
 */
export type GenericEvent = MessagingEvent;

/**
 * What {@link parseEvent} returns: a named event or a generic one.
 *
 * A `switch (event.type)` compiles and each `case` sees `event.type` as that literal, but
 * TypeScript cannot remove an open `string` from a union, so the case's `event` is still
 * "that event or a generic one". For exact narrowing, first test {@link isKnownEvent}
 * (then the `switch` is exhaustive over the named types) or use {@link isEventType}.
 */
export type ParsedEvent = KnownEvent | GenericEvent;

const KNOWN: ReadonlySet<string> = new Set(KNOWN_EVENT_TYPES);

/** True when the event has one of the named types; narrows to the union of named events. */
export function isKnownEvent(event: ParsedEvent): event is KnownEvent {
  return typeof event.type === "string" && KNOWN.has(event.type);
}

/**
 * True when the event has the given type. For a named type it narrows the event to that
 * type (`isEventType(event, "payment.succeeded")` → {@link PaymentSucceededEvent}); any
 * other string is a plain check.
 */
export function isEventType<T extends KnownEventType>(event: ParsedEvent, type: T): event is EventOfType<T>;
export function isEventType(event: ParsedEvent, type: string): boolean;
export function isEventType(event: ParsedEvent, type: string): boolean {
  return event.type === type;
}
