/** Field path → messages, as carried in a problem-details `errors` member. */
export type FieldErrors = Record<string, string[]>;

/**
 * What {@link toFieldErrors} reads of a zod issue (`z.core.$ZodIssue` fits). Written out so
 * that this module, which the error classes use, does not load zod's declarations.
 */
export interface IssueLike {
  readonly code: string;
  readonly path: ReadonlyArray<PropertyKey>;
  readonly message: string;
  /** The unknown keys of an `unrecognized_keys` issue. */
  readonly keys?: readonly string[];
}

/**
 * Renders a zod issue path the way users write it in code: `messages[1].tos[0]`.
 * An empty path (an issue with the whole value) renders as `(root)`; a `__proto__` key as
 * `["__proto__"]` (`messages[0]["__proto__"]`).
 */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    // Quoted, so no reader ever has to hold `__proto__` as an object key (zod's records drop it).
    else if (segment === "__proto__") out += `["__proto__"]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out === "" ? "(root)" : out;
}

/**
 * Adds `messages` under `field`, safely for any field name: `errors[field] ??= []` would read
 * `Object.prototype` members for `__proto__` or `constructor` (and assigning `__proto__`
 * would change the object's prototype), so the entry is always an own property.
 */
export function addFieldError(errors: FieldErrors, field: string, ...messages: string[]): void {
  if (Object.hasOwn(errors, field)) {
    errors[field].push(...messages);
  } else {
    Object.defineProperty(errors, field, { value: [...messages], enumerable: true, writable: true, configurable: true });
  }
}

/** Adds every entry of `source` to `target` (see {@link addFieldError}). */
export function mergeFieldErrors(target: FieldErrors, source: FieldErrors): void {
  for (const [field, messages] of Object.entries(source)) addFieldError(target, field, ...messages);
}

/**
 * Groups zod issues by rendered field path, each path put after `prefix`. zod reports all of
 * an object's unknown keys as one issue on the object; here each key gets its own entry
 * (`messages[0].bdy: unknown field`), since the key is what a user has to find and fix.
 */
export function toFieldErrors(issues: ReadonlyArray<IssueLike>, prefix: readonly PropertyKey[] = []): FieldErrors {
  const errors: FieldErrors = {};
  const add = (path: readonly PropertyKey[], message: string) => addFieldError(errors, formatPath([...prefix, ...path]), message);
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys" && issue.keys !== undefined) {
      for (const key of issue.keys) add([...issue.path, key], "unknown field");
    } else {
      add(issue.path, issue.message);
    }
  }
  return errors;
}

/** How {@link describeFieldErrors} lays out its lines. */
export interface DescribeFieldErrorsOptions {
  /** Put before each field's line, e.g. `"  "` under a heading. Default `""`. */
  readonly indent?: string;
  /**
   * Put between fields. Default a newline (one field a line); `"; "` keeps it on one line,
   * e.g. for a problem's `detail`.
   */
  readonly separator?: string;
}

/**
 * The one rendering of field errors in messages: `messages[1].tos[0]: expected …`, a field's
 * messages joined with `; `, one field a line (see {@link DescribeFieldErrorsOptions}).
 * Empty for no errors.
 */
export function describeFieldErrors(errors: FieldErrors, { indent = "", separator = "\n" }: DescribeFieldErrorsOptions = {}): string {
  return Object.entries(errors)
    .map(([path, messages]) => `${indent}${path}: ${messages.join("; ")}`)
    .join(separator);
}
