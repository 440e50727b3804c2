/**
 * What a schema field says about itself, in its zod `.meta()`: `description` (the text a
 * generated SDK shows), `secret: true` (stored and shown as a Pulumi secret) and, on an
 * input, `replaceOnChanges: true` (a change replaces the resource).
 */
import { z } from "zod";

export interface FieldMeta {
  readonly description?: string;
  readonly secret?: boolean;
  readonly replaceOnChanges?: boolean;
}

/** The `.meta()` of a schema field (zod keeps it in its global registry). */
const metaOf = (schema: z.core.$ZodType): FieldMeta | undefined => z.globalRegistry.get(schema) as FieldMeta | undefined;

export const descriptionOf = (schema: z.ZodObject, key: string): string | undefined =>
  Object.hasOwn(schema.shape, key) ? metaOf(schema.shape[key])?.description : undefined;

const keysWith = (schema: z.ZodObject, flag: "secret" | "replaceOnChanges"): string[] =>
  Object.entries(schema.shape)
    .filter(([, field]) => metaOf(field)?.[flag] === true)
    .map(([key]) => key);

export const secretKeys = (schema: z.ZodObject): string[] => keysWith(schema, "secret");
export const replaceKeys = (schema: z.ZodObject): string[] => keysWith(schema, "replaceOnChanges");

/** `schema` with every field marked `replaceOnChanges` (each keeps its other meta). */
export function replacingOnChanges<T extends z.ZodObject>(schema: T): T {
  const marked = Object.fromEntries(
    Object.entries(schema.shape).map(([key, field]) => [key, (field as z.ZodType).meta({ ...metaOf(field), replaceOnChanges: true })]),
  );
  return schema.extend(marked) as unknown as T;
}
