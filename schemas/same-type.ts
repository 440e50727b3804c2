/**
 * Compile-time check that a plain type is exactly what a zod schema parses to:
 * `type _ = Assert<SameType<Outputs, z.output<typeof State>>>` fails to compile when either
 * gains, loses or changes a field (the resource classes; `scripts/generate/generate-wire-types.js` for
 * the wire types it prints). (Keys are compared as strings: zod types a loose object's index
 * signature as `string` keys, an interface's as `string | number`.)
 */
export type SameType<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [keyof A & string] extends [keyof B & string]
      ? [keyof B & string] extends [keyof A & string]
        ? true
        : false
      : false
    : false
  : false;

/** Compiles only when `T` is `true`. */
export type Assert<T extends true> = T;
