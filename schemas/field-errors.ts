/** Field path → messages, as carried in a problem-details `errors` member. */
export type FieldErrors = Record<string, string[]>;

/** What {@link toFieldErrors} reads of a zod issue: written out so the error classes do not load zod's declarations. */
export interface IssueLike {
  readonly code: string;
  readonly path: ReadonlyArray<PropertyKey>;
  readonly message: string;
  /** The unknown keys of an `unrecognized_keys` issue. */
  readonly keys?: readonly string[];
}

/** Renders a zod issue path as users write it in code: `messages[1].tos[0]`; the empty path is `(root)`. */
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

/** Adds `messages` under `field` as an own property: `errors[field] ??= []` would misbehave for `__proto__` or `constructor`. */
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

/** Groups zod issues by rendered path after `prefix`; each unknown key gets its own entry, since the key is what a user must fix. */
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

export interface DescribeFieldErrorsOptions {
  /** Put before each field's line, e.g. `"  "` under a heading. Default `""`. */
  readonly indent?: string;
  /** Put between fields. Default a newline; `"; "` keeps it on one line. */
  readonly separator?: string;
}

/** The one rendering of field errors in messages: `messages[1].tos[0]: expected …`, one field a line. */
export function describeFieldErrors(errors: FieldErrors, { indent = "", separator = "\n" }: DescribeFieldErrorsOptions = {}): string {
  return Object.entries(errors)
    .map(([path, messages]) => `${indent}${path}: ${messages.join("; ")}`)
    .join(separator);
}
