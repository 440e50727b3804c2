import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { containsUnknown } from "./protocol";

export function toCheckFailures(issues: ReadonlyArray<z.core.$ZodIssue>): pulumi.dynamic.CheckFailure[] {
  return issues.map((issue) => ({
    property: issue.path.map(String).join(".") || "(inputs)",
    reason: issue.message,
  }));
}

export type CheckedInputs =
  { ok: true; data: Record<string, unknown>; unknown: ReadonlySet<string> } | { ok: false; failures: pulumi.dynamic.CheckFailure[] };

/** Validates the schema's fields of a resource's inputs; preview unknowns cannot be checked yet and pass through. `null` is absent. */
export function checkKnownInputs(schema: z.ZodObject, news: Record<string, unknown>): CheckedInputs {
  const keys = Object.keys(schema.shape);
  const unknown = new Set(keys.filter((key) => containsUnknown(news[key])));
  const knownSchema = schema.omit(Object.fromEntries([...unknown].map((key) => [key, true])) as never);
  const known = Object.fromEntries(keys.filter((key) => !unknown.has(key) && news[key] != null).map((key) => [key, news[key]]));
  const parsed = knownSchema.safeParse(known);
  return parsed.success
    ? { ok: true, data: parsed.data as Record<string, unknown>, unknown }
    : { ok: false, failures: toCheckFailures(parsed.error.issues) };
}
