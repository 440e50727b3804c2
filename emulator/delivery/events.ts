import type { CloudEventEnvelope, EventData, MessagingEvent } from "../../schemas";
import { JSON_CONTENT_TYPE } from "../../schemas/http";
import { randomId } from "../storage";

export const CLOUD_EVENT_SOURCE = "/emulator";

/** See `EmitEventRequest`'s `data`. */
export function eventData(data: Record<string, unknown> | undefined): EventData {
  if (data !== undefined && Object.prototype.hasOwnProperty.call(data, "object")) {
    return { ...data, object: data.object as Record<string, unknown>, previous: (data.previous as EventData["previous"]) ?? null };
  }
  return { object: data ?? {}, previous: null };
}

/** Spec §2.3. `request` is all nulls: an emitted event has no originating API request. */
export function buildEvent(type: string, data: EventData, now = new Date()): MessagingEvent {
  return {
    id: randomId("evt_"),
    type,
    created: now.toISOString(),
    data,
    request: { id: null, idempotency_key: null },
  };
}

export interface EventPayload {
  /** Exactly the bytes that are signed and sent. */
  readonly body: string;
  readonly contentType: string;
}

/** `cloudEvents`: a CloudEvents 1.0 structured-mode envelope with the event object in `data`. */
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
