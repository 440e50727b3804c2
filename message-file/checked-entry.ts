/** A message read from a file, judged: its value when valid, else its problems, named as the file names them. */
import { addFieldError, checkMessage, toFieldErrors, type FieldErrors, type InvalidMessages } from "../schemas";
import type { IssueLike } from "../schemas/field-errors";
import { didYouMean } from "../schemas/did-you-mean";
import type { Entry } from "./entries";

/** Undefined, its problems added to `invalid`, when the entry is not a valid message. */
export function checkedValue(entry: Entry, invalid: InvalidMessages): unknown {
  if (entry.problem) {
    invalid.addReason(entry.problem.field ? `${entry.location}: ${entry.problem.field}` : entry.location, entry.problem.reason);
    return undefined;
  }
  const verdict = checkMessage(entry.value);
  if (!verdict.ok) {
    const issues = verdict.issues.flatMap(withSuggestions);
    if (entry.nameOf === undefined) invalid.addIssues(entry.location, issues);
    else {
      const errors: FieldErrors = {};
      for (const [field, reasons] of Object.entries(toFieldErrors(issues)))
        addFieldError(errors, `${entry.location}: ${entry.nameOf(field)}`, ...reasons);
      invalid.addFieldErrors(errors);
    }
    return undefined;
  }
  return entry.value;
}

// The fields of a message, and of its template, for "did you mean" on an unknown one.
const MESSAGE_FIELDS = ["tos", "body", "template"];
const TEMPLATE_FIELDS = ["id", "model"];

function withSuggestions(issue: IssueLike): IssueLike[] {
  if (issue.code !== "unrecognized_keys" || issue.keys === undefined) return [issue];
  const known = issue.path.length === 0 ? MESSAGE_FIELDS : issue.path.length === 1 && issue.path[0] === "template" ? TEMPLATE_FIELDS : [];
  return issue.keys.map((key) => ({ code: "custom", path: [...issue.path, key], message: `unknown field${didYouMean(key, known)}` }));
}
