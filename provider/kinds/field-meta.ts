// What a resource's field says about itself in its zod `.meta()`: the wire's facts (schemas/field-meta.ts), and whether it is
// a secret and replaces the resource when changed.
import { z } from "zod";
import type { WireFieldMeta } from "../../schemas/field-meta";

export interface FieldMeta extends WireFieldMeta {
  readonly secret?: boolean;
  readonly replaceOnChanges?: boolean;
}

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

/** A field's type as state records it: the plain JSON type, without the create checks. */
type Plain<T> =
  T extends z.ZodDefault<infer I>
    ? Plain<I>
    : T extends z.ZodOptional<infer I>
      ? Plain<I>
      : T extends z.ZodEnum | z.ZodString
        ? z.ZodString
        : T extends z.ZodArray<infer E>
          ? z.ZodArray<Plain<E>>
          : T extends z.ZodBoolean
            ? z.ZodBoolean
            : T extends z.ZodNumber
              ? z.ZodNumber
              : never;

/** The state fields of a create schema's shape (see {@link recordedCreateFields}). */
export type RecordedCreateFields<S extends z.ZodRawShape> = {
  [K in keyof S]: S[K] extends z.ZodOptional<infer I> ? z.ZodNullable<Plain<I>> : Plain<S[K]>;
};

function plain(field: z.core.$ZodType): z.ZodType {
  const def = field._zod.def as { type: string; innerType?: z.core.$ZodType; element?: z.core.$ZodType };
  switch (def.type) {
    case "default":
    case "optional":
      return plain(def.innerType!);
    case "string":
    case "enum":
      return z.string();
    case "array":
      return z.array(plain(def.element!));
    case "boolean":
      return z.boolean();
    case "number":
      return z.number();
  }
  throw new Error(`a create field of zod type '${def.type}': say here how state records it`);
}

/**
 * The create fields as state records them: an optional one is null when unset (`undefined` cannot cross the provider protocol).
 * Plain types, without the create checks, so state written by an earlier release is read as it is.
 */
export function recordedCreateFields<S extends z.ZodRawShape>(create: z.ZodObject<S>): RecordedCreateFields<S> {
  return Object.fromEntries(
    Object.entries(create.shape).map(([key, field]) => {
      const recorded = field._zod.def.type === "optional" ? plain(field).nullable() : plain(field);
      return [key, recorded.meta({ description: metaOf(field)?.description })];
    }),
  ) as RecordedCreateFields<S>;
}

/** A create request as state records it: every optional create field it leaves unset is null. */
export function withUnsetAsNull<T extends object>(create: z.ZodObject, request: T): T {
  const unset = Object.keys(create.shape).filter((key) => (request as Record<string, unknown>)[key] === undefined);
  return { ...request, ...Object.fromEntries(unset.map((key) => [key, null])) };
}
