import { KNOWN_EVENT_TYPES, type KnownEvent, type KnownEventType, type MessagingEvent } from "../../schemas/types";

export type EventOfType<T extends KnownEventType> = Extract<KnownEvent, { type: T }>;

/** `identity.verification.created`. The spec does not show its `data.object`; it stays a loose record. */
export type IdentityVerificationCreatedEvent = EventOfType<"identity.verification.created">;

/** `payment.succeeded`. The spec does not show its `data.object`; it stays a loose record. */
export type PaymentSucceededEvent = EventOfType<"payment.succeeded">;

/** An event of another type, or none (the spec's sample payload has no `type`). */
export type GenericEvent = MessagingEvent;

/**
 * A named event or a generic one. TypeScript cannot remove an open `string` from a union, so a `switch (event.type)` case does not
 * narrow `event`: test {@link isKnownEvent} first, or use {@link isEventType}.
 */
export type ParsedEvent = KnownEvent | GenericEvent;

const KNOWN: ReadonlySet<string> = new Set(KNOWN_EVENT_TYPES);

/** True when the event has one of the named types; narrows to the union of named events. */
export function isKnownEvent(event: ParsedEvent): event is KnownEvent {
  return typeof event.type === "string" && KNOWN.has(event.type);
}

/** True when the event has the given type; narrows for a named type. */
export function isEventType<T extends KnownEventType>(event: ParsedEvent, type: T): event is EventOfType<T>;
export function isEventType(event: ParsedEvent, type: string): boolean;
export function isEventType(event: ParsedEvent, type: string): boolean {
  return event.type === type;
}
