import { z } from "zod";
import { ResponseSchemaError, type RequestInfo } from "../errors/messaging-error";
import { toFieldErrors } from "../schemas/field-errors";
import { NOT_JSON, type HttpResponse } from "./http";
import { markUnreadableFields } from "./unreadable-fields";

export interface ParseResponseOptions {
  /** For answers the spec does not show (the batch result): an empty 2xx still means accepted. */
  readonly emptyAsObject?: boolean;
}

/** The answer without the fields at fault, when every one may be absent; otherwise undefined. */
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
 * An optional field the client cannot read is left out (see `unreadableFields`) rather than
 * failing a call that took effect. Otherwise a {@link ResponseSchemaError} names the fields and
 * the `id` sent, never quoting the body: it may hold a webhook secret.
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
