import type { CloudEventEnvelope, EventData, MessagingEvent } from "../../schemas";
import { JSON_CONTENT_TYPE } from "../../schemas/http";
import { randomId } from "../storage";

/** `source` of the CloudEvents the emulator sends. */
export const CLOUD_EVENT_SOURCE = "/emulator";

/**
 * The event's `data` from what `POST /_emulator/events` was given: when `data` has an
 * `object` member it already is the event's `data` (`previous` defaults to null); otherwise
 * it is the related object and becomes `data.object` (`{}` when nothing was given).
 */
export function eventData(data: Record<string, unknown> | undefined): EventData {
  if (data !== undefined && Object.prototype.hasOwnProperty.call(data, "object")) {
    return { ...data, object: data.object as Record<string, unknown>, previous: (data.previous as EventData["previous"]) ?? null };
  }
  return { object: data ?? {}, previous: null };
}

/**
 * An event object (spec §2.3) for an emitted type. `request` is all nulls: an event emitted
 * through `/_emulator/events` has no originating API request.
 */
export function buildEvent(type: string, data: EventData, now = new Date()): MessagingEvent {
  return {
    id: randomId("evt_"),
    type,
    created: now.toISOString(),
    data,
    request: { id: null, idempotency_key: null },
  };
}

/** A serialized payload and its content type. */
export interface EventPayload {
  /** Raw body, exactly the bytes that are signed and sent. */
  readonly body: string;
  /** `Content-Type` to send it with. */
  readonly contentType: string;
}

/**
 * The payload for an endpoint's format: `basic` is the event object as JSON; `cloudEvents`
 * is a CloudEvents 1.0 structured-mode envelope with the event object in `data`.
 */
export function eventPayload(event: MessagingEvent, format: string): EventPayload {
  if (format === "cloudEvents") {
    const envelope: CloudEventEnvelope = {
      specversion: "1.0",
      type: event.type ?? "",
      source: CLOUD_EVENT_SOURCE,
      id: event.id,
      time: event.created,
      datacontenttype: JSON_CONTENT_TYPE,
      data: event,
    };
    return { body: JSON.stringify(envelope), contentType: "application/cloudevents+json; charset=utf-8" };
  }
  return { body: JSON.stringify(event), contentType: `${JSON_CONTENT_TYPE}; charset=utf-8` };
}
