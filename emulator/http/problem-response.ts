import { PROBLEM_CONTENT_TYPE, buildProblem, describeFieldErrors, type FieldErrors, type ProblemTitle } from "../../schemas";
import type { Reply } from "./reply";

/** `Retry-After` of the emulator's transient problems: small so retrying tests stay quick. */
export const RETRY_AFTER_SECONDS = 1;

export interface ProblemOptions {
  readonly errors?: FieldErrors;
  readonly headers?: Record<string, string>;
}

/** RFC 9457. `title` is the stable code clients branch on; `detail` never holds the API key. */
export function problemReply(status: number, title: ProblemTitle, detail: string, options: ProblemOptions = {}): Reply {
  return {
    status,
    headers: { "Content-Type": `${PROBLEM_CONTENT_TYPE}; charset=utf-8`, ...options.headers },
    body: JSON.stringify(buildProblem(status, title, detail, options.errors)),
  };
}

/** The one way the emulator rejects a request: every check and handler throws it. */
export class ProblemError extends Error {
  readonly reply: Reply;

  constructor(reply: Reply) {
    super(`problem ${reply.status}`);
    this.name = "ProblemError";
    this.reply = reply;
  }
}

export function problem(status: number, title: ProblemTitle, detail: string, options?: ProblemOptions): ProblemError {
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
