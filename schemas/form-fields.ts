import type { z } from "zod";
import { wireMetaOf, wireNameOf } from "./field-meta";

/** A field of a form-encoded operation, as the service reads it. */
export interface FormField {
  readonly key: string;
  /** The form's name: the field's wire name, or `<wire name>[]` for an array, repeated once per item (the spec's `events[]`). */
  readonly name: string;
  readonly repeated: boolean;
  /** The most UTF-8 bytes of a value (of each item) the emulator stores (`.meta({ maxBytes })`). */
  readonly maxBytes?: number;
  /** The most items of a repeated field the emulator stores (`.meta({ maxItems })`). */
  readonly maxItems?: number;
}

// The schema under `.optional()` and `.default()`.
function unwrapped(schema: z.core.$ZodType): z.core.$ZodType {
  const def = schema._zod.def as { type: string; innerType?: z.core.$ZodType };
  return (def.type === "optional" || def.type === "default") && def.innerType ? unwrapped(def.innerType) : schema;
}

/** The form fields of a request schema, by `client/form.ts`'s rule: the emulator and the endpoint's idempotency key read these. */
export function formFieldsOf(schema: z.ZodObject): FormField[] {
  return Object.entries(schema.shape).map(([key, field]) => {
    const repeated = unwrapped(field)._zod.def.type === "array";
    const { maxBytes, maxItems } = wireMetaOf(field) ?? {};
    const wireName = wireNameOf(schema, key);
    return { key, name: repeated ? `${wireName}[]` : wireName, repeated, maxBytes, maxItems };
  });
}

/** True when the field of `schema` named `key` is an array: a set, for the service (order and repeats mean nothing). */
export const isRepeatedField = (schema: z.ZodObject, key: string): boolean =>
  formFieldsOf(schema).some((field) => field.key === key && field.repeated);
