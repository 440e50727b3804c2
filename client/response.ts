import type { z } from "zod";
import { ResponseSchemaError, type RequestInfo } from "../errors/messaging-error";
import { toFieldErrors } from "../schemas/field-errors";
import { NOT_JSON, type HttpResponse } from "./http";

/** How to read a body. */
export interface ParseResponseOptions {
  /**
   * Read an empty body as `{}` rather than as an error. For responses the spec does not
   * show (the batch result), where an empty 2xx still means the call was accepted.
   */
  readonly emptyAsObject?: boolean;
}

/**
 * Parses a 2xx response body with its schema, where it enters the client. On a mismatch
 * throws {@link ResponseSchemaError} naming the fields at fault and, when the body carried
 * a string `id`, that id (the call did take effect). The body itself is never quoted: it
 * may hold a webhook secret.
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
  const id =
    typeof raw === "object" && raw !== null && typeof (raw as { id?: unknown }).id === "string"
      ? response.redact((raw as { id: string }).id)
      : undefined;
  throw new ResponseSchemaError(info, toFieldErrors(result.error.issues), id);
}
