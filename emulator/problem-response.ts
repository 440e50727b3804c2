import type { z } from "zod";
import { PROBLEM_CONTENT_TYPE, describeFieldErrors, toFieldErrors, type FieldErrors, type Problem } from "../schemas";
import type { Reply } from "./reply";

/**
 * The `type` URI of a problem: one per stable `title` code. The service's own URIs are not
 * shown in the spec, so these are URNs that name the code rather than a page to fetch.
 */
export function problemType(title: string): string {
  return `urn:messaging:problem:${title}`;
}

/**
 * An RFC 9457 problem-details reply (`application/problem+json`). `title` is the stable
 * snake_case code clients branch on; `detail` is for people and never holds the API key.
 */
export function problemReply(
  status: number,
  title: string,
  detail: string,
  options: { errors?: FieldErrors; headers?: Record<string, string> } = {},
): Reply {
  const problem: Problem = { type: problemType(title), title, status, detail };
  if (options.errors !== undefined) problem.errors = options.errors;
  return {
    status,
    headers: { "Content-Type": `${PROBLEM_CONTENT_TYPE}; charset=utf-8`, ...options.headers },
    body: JSON.stringify(problem),
  };
}

/** Thrown by request parsing and handlers to stop and answer with a problem. */
export class ProblemError extends Error {
  /** The problem reply to send. */
  readonly reply: Reply;

  constructor(reply: Reply) {
    super(`problem ${reply.status}`);
    this.name = "ProblemError";
    this.reply = reply;
  }
}

/** Shorthand for `new ProblemError(problemReply(...))`. */
export function problem(
  status: number,
  title: string,
  detail: string,
  options?: { errors?: FieldErrors; headers?: Record<string, string> },
): ProblemError {
  return new ProblemError(problemReply(status, title, detail, options));
}

/**
 * Field errors from zod issues, with one entry per unknown key: zod reports all of an
 * object's unknown keys as one issue on the object, but a user wants to see the key itself
 * (`messages[0].bdy`) named.
 */
export function fieldErrorsFromIssues(issues: ReadonlyArray<z.core.$ZodIssue>): FieldErrors {
  const expanded: z.core.$ZodIssue[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        expanded.push({ ...issue, path: [...issue.path, key], message: "unknown field" });
      }
    } else {
      expanded.push(issue);
    }
  }
  return toFieldErrors(expanded);
}

/** 400 `validation_failed` (or another title) naming every bad field. */
export function validationProblem(errors: FieldErrors, title = "validation_failed"): ProblemError {
  const count = Object.keys(errors).length;
  return problem(
    400,
    title,
    // One line: `detail` is a sentence; the structured list is in `errors`.
    `The request has ${count} invalid field${count === 1 ? "" : "s"}: ${describeFieldErrors(errors, { separator: "; " })}`,
    { errors },
  );
}
