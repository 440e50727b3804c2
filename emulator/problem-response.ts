import { PROBLEM_CONTENT_TYPE, describeFieldErrors, type FieldErrors, type Problem } from "../schemas";
import type { Reply } from "./reply";

/**
 * `Retry-After` of the emulator's transient problems (injected 429s, 409
 * `idempotency_key_in_use`), in seconds: small so retrying tests stay quick.
 */
export const RETRY_AFTER_SECONDS = 1;

/**
 * The `type` URI of a problem: one per stable `title` code. The service's own URIs are not
 * shown in the spec, so these are URNs that name the code rather than a page to fetch.
 */
function problemType(title: string): string {
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

/** 400 `validation_failed` naming every bad field (see `toFieldErrors` for zod issues). */
export function validationProblem(errors: FieldErrors): ProblemError {
  const count = Object.keys(errors).length;
  return problem(
    400,
    "validation_failed",
    // One line: `detail` is a sentence; the structured list is in `errors`.
    `The request has ${count} invalid field${count === 1 ? "" : "s"}: ${describeFieldErrors(errors, { separator: "; " })}`,
    { errors },
  );
}
