import { KNOWN_EVENT_TYPES, type KnownEventType } from "../schemas/types";

// The spec shows no `data.object` for either type; these are plausible objects for trying a
// receiver out (`messaging trigger <type>` without --data), not a claim about the service.

let counter = 0;
function sampleId(prefix: string): string {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}${counter.toString(36).padStart(3, "0")}`;
}

const SAMPLES: { readonly [Type in KnownEventType]: () => Record<string, unknown> } = {
  "payment.succeeded": () => ({
    id: sampleId("pay"),
    object: "payment",
    amount: 1999,
    currency: "KES",
    status: "succeeded",
    phone: "+254712345678",
    description: "Order 1042",
    created: new Date().toISOString(),
  }),
  "identity.verification.created": () => ({
    id: sampleId("iv"),
    object: "identity.verification",
    status: "pending",
    method: "sms",
    phone: "+254712345678",
    created: new Date().toISOString(),
  }),
};

/** The event types that have a sample (the named ones, spec §6). */
export const SAMPLE_EVENT_TYPES: readonly KnownEventType[] = KNOWN_EVENT_TYPES;

/** A fresh sample `data.object` for a named event type (new id each call), or undefined for any other type. */
export function sampleObject(type: string): Record<string, unknown> | undefined {
  return Object.hasOwn(SAMPLES, type) ? SAMPLES[type as KnownEventType]() : undefined;
}
