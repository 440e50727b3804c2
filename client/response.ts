import { z } from "zod";
import { ResponseSchemaError, type RequestInfo } from "../errors/messaging-error";
import { toFieldErrors } from "../schemas/field-errors";
import { NOT_JSON, type HttpResponse } from "./http";
import { markUnreadableFields } from "./unreadable-fields";

/** How to read a body. */
export interface ParseResponseOptions {
  /**
   * Read an empty body as `{}` rather than as an error. For responses the spec does not
   * show (the batch result), where an empty 2xx still means the call was accepted.
   */
  readonly emptyAsObject?: boolean;
}

/**
 * The answer without the top-level fields at fault, when every issue is on a field the
 * object schema lets be absent and the rest parses; otherwise undefined.
 */
function withoutOptionalFieldsAtFault(schema: z.ZodType, raw: unknown, issues: readonly z.core.$ZodIssue[]): unknown {
  if (!(schema instanceof z.ZodObject) || typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const shape = schema.shape as Record<string, z.ZodType>;
  const fields = new Set<string>();
  for (const issue of issues) {
    const field = issue.path[0];
    if (typeof field !== "string" || !Object.hasOwn(shape, field) || !shape[field].safeParse(undefined).success) return undefined;
    fields.add(field);
  }
  const result = schema.safeParse(Object.fromEntries(Object.entries(raw).filter(([field]) => !fields.has(field))));
  if (!result.success) return undefined;
  markUnreadableFields(result.data as object, toFieldErrors(issues));
  return result.data;
}

/**
 * Parses a 2xx response body with its schema, where it enters the client.
 *
 * A field the schema lets be absent, sent in a form it does not accept (say `created` as a
 * number), is left out rather than failing the call, since the call did take effect and
 * what the caller needs (an endpoint's id and secret) may be fine; `unreadableFields`
 * (client/unreadable-fields.ts) names what was left out. Otherwise a mismatch throws
 * {@link ResponseSchemaError} naming the fields at fault and, when the body carried a string
 * `id`, that id (the call did take effect). The body itself is never quoted: it may hold a
 * webhook secret.
 */
export function parseResponseBody<S extends z.ZodType>(
  schema: S,
  response: HttpResponse,
  request: RequestInfo,
  options: ParseResponseOptions = {},
): z.output<S> {
  const info: RequestInfo = { ...request, requestId: response.requestId };
  if (response.empty && options.emptyAsObject) return parseResponseBody(schema, { ...response, json: {}, empty: false }, request);
  if (response.json === NOT_JSON) {
    throw new ResponseSchemaError(info, { "(root)": [`expected a JSON body with HTTP ${response.status}`] });
  }
  const result = schema.safeParse(response.json);
  if (result.success) return result.data;
  const raw = response.json;
  const lenient = withoutOptionalFieldsAtFault(schema, raw, result.error.issues);
  if (lenient !== undefined) return lenient as z.output<S>;
  const id =
    typeof raw === "object" && raw !== null && typeof (raw as { id?: unknown }).id === "string"
      ? response.redact((raw as { id: string }).id)
      : undefined;
  throw new ResponseSchemaError(info, toFieldErrors(result.error.issues), id);
}
