import { z } from "zod";

/**
 * RFC 9457 problem details. The spec does not show an error body; this is the shape the
 * emulator answers with and the client understands. `title` is a stable machine code
 * and `errors` maps a field path to its messages.
 */
export const Problem = z.looseObject({
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.number().int().optional(),
  detail: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type Problem = z.infer<typeof Problem>;

/** Content type of problem-details bodies. */
export const PROBLEM_CONTENT_TYPE = "application/problem+json";
