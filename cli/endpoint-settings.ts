import { KNOWN_EVENT_TYPES } from "../schemas/types";
import { didYouMean } from "../schemas/did-you-mean";
import { WebhookFormat } from "../schemas/webhook-endpoint";

/** The formats an endpoint can be created with. */
export const ENDPOINT_FORMATS: readonly WebhookFormat[] = WebhookFormat.options;

export const isEndpointFormat = (value: string): value is WebhookFormat => (ENDPOINT_FORMATS as readonly string[]).includes(value);

/**
 * `--events a,b` (repeatable) as a list of event types; default: every named type. A type
 * that is not named is refused (with the named type it may mistype) unless
 * `allowUnknownType`: an endpoint may subscribe to any type, but a typo would subscribe it
 * to events that never come.
 */
export function parseEventsOption(values: readonly string[] | undefined, allowUnknownType: boolean): readonly string[] | string {
  if (values === undefined || values.length === 0) return KNOWN_EVENT_TYPES;
  const events = [...new Set(values.flatMap((value) => value.split(",")).map((type) => type.trim()))];
  if (events.some((type) => type === "")) return "--events: an event type is empty (give them separated by commas)";
  const unknown = events.find((type) => !(KNOWN_EVENT_TYPES as readonly string[]).includes(type));
  if (unknown !== undefined && !allowUnknownType) {
    return (
      `--events: '${unknown}' is not a named event type${didYouMean(unknown, KNOWN_EVENT_TYPES)}; ` +
      `the named ones are ${KNOWN_EVENT_TYPES.join(", ")} (add --allow-unknown-type to subscribe to another)`
    );
  }
  return events;
}

/** `--format`, checked; default `basic`. */
export function parseFormatOption(value: string | undefined): WebhookFormat | string {
  if (value === undefined) return "basic";
  if (isEndpointFormat(value)) return value;
  return `--format must be ${ENDPOINT_FORMATS.join(" or ")}, got '${value}'${didYouMean(value, ENDPOINT_FORMATS)}`;
}
