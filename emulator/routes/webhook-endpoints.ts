import { randomBytes } from "node:crypto";
import { WebhookEndpointCreate, addFieldError, formatPath, toFieldErrors, type FieldErrors } from "../../schemas";
import { FORM_CONTENT_TYPE } from "../../schemas/http";
import { decodeUtf8, requireMediaType } from "../body";
import { parseFormBody } from "../form-body";
import { randomId } from "../ids";
import { problem, validationProblem } from "../problem-response";
import { jsonReply, type Reply } from "../reply";
import type { RouteContext } from "../route-context";
import type { RecordedWebhookEndpoint } from "../store";

/** Form fields sent once. */
const SINGLE_FIELDS = ["url", "format", "description"] as const;
/** The repeated field, one per event type (spec §4.2). */
const EVENTS_FIELD = "events[]";

/**
 * Turns form fields into the object `WebhookEndpointCreate` validates, collecting errors
 * the schema cannot see: unknown fields (a plain `events` is a common slip for `events[]`)
 * and single fields sent more than once.
 */
function formToEndpointInput(fields: ReadonlyArray<[string, string]>): { input: Record<string, unknown>; errors: FieldErrors } {
  const byName = new Map<string, string[]>();
  for (const [name, value] of fields) byName.set(name, [...(byName.get(name) ?? []), value]);
  const input: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  for (const [name, values] of byName) {
    if (name === EVENTS_FIELD) {
      input.events = values;
    } else if ((SINGLE_FIELDS as readonly string[]).includes(name)) {
      if (values.length > 1) addFieldError(errors, name, `expected one value, got ${values.length}`);
      else input[name] = values[0];
    } else {
      // Any other name, `__proto__` and `constructor` included, is only ever a key of `errors`.
      addFieldError(
        errors,
        formatPath([name]),
        name === "events" || /^events\[\d+\]$/.test(name)
          ? "unknown field; repeat 'events[]' once per event type"
          : `unknown field; expected url, format, description or ${EVENTS_FIELD}`,
      );
    }
  }
  return { input, errors };
}

// Strong etag, fresh for every version of the object.
function newEtag(): string {
  return `"${randomBytes(16).toString("hex")}"`;
}

// 32 random bytes, the usual strength of an HMAC signing secret.
function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/** `POST /v1/webhooks/endpoints`: form-encoded create; answers 200 with the endpoint object, every field of spec §2.2 set. */
export function createWebhookEndpoint({ req, body, store }: RouteContext): Reply {
  requireMediaType(req, FORM_CONTENT_TYPE);
  const { input, errors } = formToEndpointInput(parseFormBody(decodeUtf8(body, "malformed_form")));
  const parsed = WebhookEndpointCreate.safeParse(input);
  const allErrors = parsed.success ? errors : toFieldErrors(parsed.error.issues);
  if (!parsed.success) for (const [field, messages] of Object.entries(errors)) for (const m of messages) addFieldError(allErrors, field, m);
  if (!parsed.success || Object.keys(allErrors).length > 0) throw validationProblem(allErrors);

  if (store.endpoints().length >= store.maxEndpoints) {
    throw problem(
      409,
      "endpoint_limit_reached",
      `This emulator already has ${store.maxEndpoints} webhook endpoints, its limit; start a fresh one.`,
    );
  }
  const now = new Date().toISOString();
  const endpoint: RecordedWebhookEndpoint = {
    id: randomId("we_"),
    created: now,
    updated: now,
    format: parsed.data.format,
    secret: newSecret(),
    workspace: store.workspace,
    live: false,
    etag: newEtag(),
    events: parsed.data.events,
    description: parsed.data.description ?? null,
    status: "enabled",
    url: parsed.data.url,
    metadata: {},
  };
  store.addEndpoint(endpoint);
  return jsonReply(200, endpoint);
}
