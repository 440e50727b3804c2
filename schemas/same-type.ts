/**
 * `Assert<SameType<Outputs, z.output<typeof State>>>` fails to compile when a plain type and a schema's type differ by a field.
 * Keys are compared as strings: zod types a loose object's index signature as `string` keys, an interface's as `string | number`.
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
