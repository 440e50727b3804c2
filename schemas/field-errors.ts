import type { z } from "zod";

/** Field path → messages, as carried in a problem-details `errors` member. */
export type FieldErrors = Record<string, string[]>;

/**
 * Renders a zod issue path the way users write it in code: `messages[1].tos[0]`.
 * An empty path (an issue with the whole value) renders as `(root)`.
 */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out === "" ? "(root)" : out;
}

/** Groups zod issues by rendered field path. */
export function toFieldErrors(issues: ReadonlyArray<z.core.$ZodIssue>, prefix: PropertyKey[] = []): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = formatPath([...prefix, ...issue.path]);
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}

/** One line per field: `messages[1].tos[0]: expected …`. */
export function describeFieldErrors(errors: FieldErrors): string {
  return Object.entries(errors)
    .map(([path, messages]) => `${path}: ${messages.join("; ")}`)
    .join("\n");
}
