// What a wire field says about itself in its zod `.meta()`, each fact written there once: the client's form encoding, the
// emulator's limits and records, and `messaging endpoints list` read it (the provider adds its own facts: provider/kinds/field-meta.ts).
import { z } from "zod";

export interface WireFieldMeta {
  /** What every SDK, the generated types, the docs' field tables and `--help` show. */
  readonly description?: string;
  /** The field's name on the wire (its form field, its key in the service's object) when it is not the property's. */
  readonly wireName?: string;
  /** The most UTF-8 bytes of its value (of each item, for an array) the emulator stores; the spec sets none, so the client checks none. */
  readonly maxBytes?: number;
  /** For an array: the most items the emulator stores. */
  readonly maxItems?: number;
  /** Whether `messaging endpoints list` shows it, after the endpoint's id and before its secret. */
  readonly listed?: boolean;
}

export const wireMetaOf = (schema: z.core.$ZodType): WireFieldMeta | undefined => z.globalRegistry.get(schema) as WireFieldMeta | undefined;

/** The name of `schema`'s field `key` on the wire. */
export const wireNameOf = (schema: z.ZodObject, key: string): string => wireMetaOf(schema.shape[key])?.wireName ?? key;

/** The fields `endpoints list` shows, in the schema's order: each one's key and its name in the service's object. */
export const listedFields = (schema: z.ZodObject): Array<{ key: string; wireName: string }> =>
  Object.entries(schema.shape)
    .filter(([, field]) => wireMetaOf(field)?.listed === true)
    .map(([key]) => ({ key, wireName: wireNameOf(schema, key) }));
