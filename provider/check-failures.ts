import type { z } from "zod";
import type * as pulumi from "@pulumi/pulumi";

/** Maps zod issues to Pulumi check failures, one per issue, `property` as a dotted path. */
export function toCheckFailures(issues: ReadonlyArray<z.core.$ZodIssue>): pulumi.dynamic.CheckFailure[] {
  return issues.map((issue) => ({
    property: issue.path.map(String).join(".") || "(inputs)",
    reason: issue.message,
  }));
}
