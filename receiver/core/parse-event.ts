import { ValidationError } from "../../errors/messaging-error";
import { CloudEventEnvelope as CloudEventEnvelopeSchema, MessagingEvent } from "../../schemas/event";
import { addFieldError, toFieldErrors, type FieldErrors } from "../../schemas/field-errors";
import { findJsonHazards, jsonHazardField, type JsonHazard } from "../../schemas/json-value";
import { parseStrictJson } from "../../schemas/strict-json";
import { decodeUtf8Text } from "../../schemas/utf8-text";
import type { CloudEventEnvelope, WebhookFormat } from "../../schemas/types";
import type { ParsedEvent } from "./event-types";

/** CloudEvents context attributes of an envelope: everything but `data`. */
// Not `Omit`, which on an index signature drops the named members too.
export type CloudEventAttributes = {
  [K in keyof CloudEventEnvelope as K extends "data" ? never : K]: CloudEventEnvelope[K];
};

export type ParsedPayload =
  | { readonly format: Extract<WebhookFormat, "basic">; readonly event: ParsedEvent }
  | {
      readonly format: Extract<WebhookFormat, "cloudEvents">;
      readonly event: ParsedEvent;
      readonly cloudEvent: CloudEventAttributes;
    };

/**
 * Parses a webhook body, basic (spec §2.3) or CloudEvents 1.0 structured (the event is `data`, typed by the envelope's `type` when
 * it has none). Unknown extra fields are kept.
 * @param rawBody As received, or already parsed. Verify the signature on the raw body first (see {@link constructEvent}).
 * @throws ValidationError when the body is not a UTF-8 JSON event under the package's JSON rule (docs/json-rule.md); `fieldErrors`
 *   names each field.
 */
export function parseEvent(rawBody: string | Uint8Array | object): ParsedEvent {
  return parseWebhookPayload(rawBody).event;
}

/** Like {@link parseEvent}, and also gives the format and, for CloudEvents, the envelope's attributes. */
export function parseWebhookPayload(rawBody: string | Uint8Array | object): ParsedPayload {
  const value = toJsonValue(rawBody);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const got = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    throw new ValidationError("webhook payload", {
      "(root)": [`expected a JSON object (an event or a CloudEvents envelope), got ${got}`],
    });
  }

  if (!("specversion" in value)) {
    const parsed = MessagingEvent.safeParse(value);
    if (!parsed.success) throw new ValidationError("webhook event", toFieldErrors(parsed.error.issues));
    return { format: "basic", event: parsed.data };
  }

  // Filled in before validation, so the event is validated once, as returned.
  const envelope = value as Record<string, unknown>;
  const inner = envelope.data;
  const withType =
    isPlainObject(inner) && inner.type === undefined && typeof envelope.type === "string"
      ? { ...envelope, data: { ...inner, type: envelope.type } }
      : envelope;
  const parsed = CloudEventEnvelopeSchema.safeParse(withType);
  if (!parsed.success) throw new ValidationError("CloudEvents envelope", toFieldErrors(parsed.error.issues));
  const { data: event, ...cloudEvent } = parsed.data;
  return { format: "cloudEvents", event, cloudEvent };
}

function hazardError(hazards: readonly JsonHazard[]): ValidationError {
  const errors: FieldErrors = {};
  for (const hazard of hazards) addFieldError(errors, jsonHazardField(hazard), hazard.message);
  return new ValidationError("webhook payload", errors);
}

// The JSON rule comes before any schema: zod would drop a `__proto__` key silently.
function toJsonValue(rawBody: string | Uint8Array | object): unknown {
  let text: string;
  if (typeof rawBody === "string") {
    text = rawBody.replace(/^\uFEFF/, "");
  } else if (rawBody instanceof Uint8Array) {
    const decoded = decodeUtf8Text(rawBody, "the body");
    if (!decoded.ok) throw new ValidationError("webhook payload", { "(root)": [decoded.reason] });
    text = decoded.text;
  } else {
    const hazards = findJsonHazards(rawBody);
    if (hazards.length > 0) throw hazardError(hazards);
    return rawBody;
  }
  const parsed = parseStrictJson(text);
  if (parsed.ok) return parsed.value;
  if (parsed.syntax !== undefined)
    throw new ValidationError("webhook payload", { "(root)": [`the body is not valid JSON: ${parsed.syntax}`] });
  throw hazardError(parsed.problems);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
