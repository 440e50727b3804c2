import { z } from "zod";
import type * as wire from "./wire-types.generated";

/** RFC 9457 problem details (the spec shows no error body): `title` is a stable code, `errors` maps a field path to its messages. */
export const Problem = z.looseObject({
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.number().int().optional(),
  detail: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type Problem = wire.Problem;

/** Content type of problem-details bodies. */
export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/** Every problem `title` the emulator and the receivers answer with: stable codes that callers branch on. */
export const PROBLEM_TITLES = [
  // Requests to the emulator
  "unauthorized",
  "host_not_allowed",
  "missing_version_header",
  "invalid_version_header",
  "not_found",
  "method_not_allowed",
  "payload_too_large",
  "unsupported_media_type",
  "malformed_json",
  "malformed_form",
  "validation_failed",
  "batch_too_large",
  "invalid_idempotency_key",
  "idempotency_key_reused",
  "idempotency_key_in_use",
  "delivery_in_progress",
  "endpoint_limit_reached",
  "internal_error",
  "service_unavailable",
  "rate_limited",
  // Webhook requests to a receiver
  "missing_header",
  "malformed_header",
  "no_matching_signature",
  "timestamp_out_of_tolerance",
  "invalid_event",
  "bad_request",
  "handler_failed",
  "event_in_progress",
] as const;
export type ProblemTitle = (typeof PROBLEM_TITLES)[number];

/** Prefix of every problem `type`: URNs naming the code, since the spec shows no type URIs. */
export const PROBLEM_TYPE_PREFIX = "urn:messaging:problem:";

/** A problem as the emulator and the receivers send it: every member set. */
export type ProblemBody = Problem & { type: string; title: ProblemTitle; status: number; detail: string };

/** The one builder of problem details. `detail` is for people and must hold no API key or secret. */
export function buildProblem(status: number, title: ProblemTitle, detail: string, errors?: Problem["errors"]): ProblemBody {
  const body: ProblemBody = { type: `${PROBLEM_TYPE_PREFIX}${title}`, title, status, detail };
  if (errors !== undefined) body.errors = errors;
  return body;
}
