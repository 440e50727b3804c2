import { randomBytes } from "node:crypto";
import { WebhookEndpointCreate, addFieldError, formatPath, toFieldErrors, type FieldErrors } from "../../schemas";
import { wireNameOf } from "../../schemas/field-meta";
import { formFieldsOf } from "../../schemas/form-fields";
import { FORM_CONTENT_TYPE } from "../../schemas/http";
import { decodeUtf8, requireMediaType, parseFormBody, problem, validationProblem, jsonReply, type Reply } from "../http";
import { randomId } from "../storage";
import type { OperationHandlers, RouteContext } from "./route-context";
import { EmulatedWebhookEndpointSchema, type EmulatedWebhookEndpoint } from "../records";

/**
 * The create's form fields, from its schema (`url`, `events[]` repeated, `format`, `description`), each with the most bytes and
 * items the emulator stores of it (its `.meta()`; the spec sets none). `metadata` is not a create field (spec §4.2): sent, it is
 * refused as an unknown field, so every endpoint's metadata is `{}`.
 */
const CREATE_FIELDS = formFieldsOf(WebhookEndpointCreate);

/** A field as the service names it in an error: its wire name (without a list's `[]`). */
const wireName = (key: string): string => wireNameOf(WebhookEndpointCreate, key);

// Adds a 400 message for every value over its field's limits.
function checkFieldLimits(fields: ReadonlyArray<[string, string]>, errors: FieldErrors): void {
  const bytes = (value: string) => Buffer.byteLength(value, "utf8");
  const items = new Map<string, number>();
  for (const [name, value] of fields) {
    const field = CREATE_FIELDS.find((candidate) => candidate.name === name);
    if (field === undefined) continue;
    const index = items.get(name) ?? 0;
    items.set(name, index + 1);
    if (field.maxBytes !== undefined && bytes(value) > field.maxBytes)
      addFieldError(
        errors,
        field.repeated ? `${wireName(field.key)}[${index}]` : wireName(field.key),
        `expected at most ${field.maxBytes} bytes of UTF-8, got ${bytes(value)}`,
      );
  }
  for (const field of CREATE_FIELDS) {
    const count = items.get(field.name) ?? 0;
    if (field.maxItems !== undefined && count > field.maxItems)
      addFieldError(errors, wireName(field.key), `expected at most ${field.maxItems} values, got ${count}`);
  }
}

/**
 * Turns form fields into the object `WebhookEndpointCreate` validates, as the schema names
 * them (`schemas/form-fields.ts`), collecting errors the schema cannot see: unknown fields
 * (a repeated field sent without `[]` is a common slip) and single fields sent more than once.
 */
function formToEndpointInput(fields: ReadonlyArray<[string, string]>): { input: Record<string, unknown>; errors: FieldErrors } {
  const byName = new Map<string, string[]>();
  for (const [name, value] of fields) byName.set(name, [...(byName.get(name) ?? []), value]);
  const input: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  for (const [name, values] of byName) {
    const field = CREATE_FIELDS.find((candidate) => candidate.name === name);
    if (field?.repeated) input[field.key] = values;
    else if (field) {
      if (values.length > 1) addFieldError(errors, name, `expected one value, got ${values.length}`);
      else input[field.key] = values[0];
    } else {
      // Any other name, `__proto__` and `constructor` included, is only ever a key of `errors`.
      const slip = CREATE_FIELDS.find(
        (candidate) => candidate.repeated && (name === candidate.key || name.startsWith(`${candidate.key}[`)),
      );
      const names = CREATE_FIELDS.map((candidate) => candidate.name);
      addFieldError(
        errors,
        formatPath([name]),
        slip
          ? `unknown field; repeat '${slip.name}' once per value`
          : `unknown field; expected ${names.slice(0, -1).join(", ")} or ${names.at(-1)}`,
      );
    }
  }
  return { input, errors };
}

const wirePath = (path: readonly PropertyKey[]): PropertyKey[] =>
  path.length === 0 ? [] : [typeof path[0] === "string" ? wireName(path[0]) : path[0], ...path.slice(1)];

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
  const fields = parseFormBody(decodeUtf8(body, "malformed_form"));
  const { input, errors } = formToEndpointInput(fields);
  checkFieldLimits(fields, errors);
  const parsed = WebhookEndpointCreate.safeParse(input);
  // The schema's issues name its keys; the service names the wire's fields.
  const issues = parsed.success ? [] : parsed.error.issues.map((issue) => ({ ...issue, path: wirePath(issue.path) }));
  const allErrors = parsed.success ? errors : toFieldErrors(issues);
  if (!parsed.success) for (const [field, messages] of Object.entries(errors)) for (const m of messages) addFieldError(allErrors, field, m);
  if (!parsed.success || Object.keys(allErrors).length > 0) throw validationProblem(allErrors);

  const now = new Date().toISOString();
  // Every create field as given (an optional one not given is null, as the spec's object has it), then what the service sets.
  const given = Object.fromEntries(CREATE_FIELDS.map(({ key }) => [wireName(key), parsed.data[key as keyof typeof parsed.data] ?? null]));
  // Parsed with the record's schema: the fields named nowhere here are checked all the same.
  const endpoint: EmulatedWebhookEndpoint = EmulatedWebhookEndpointSchema.parse({
    id: randomId("we_"),
    created: now,
    updated: now,
    ...given,
    secret: newSecret(),
    ...store.account,
    etag: newEtag(),
    status: "enabled",
    metadata: {},
  });
  const refusal = store.endpointRefusal(endpoint);
  if (refusal !== undefined) throw problem(409, "endpoint_limit_reached", refusal);
  store.addEndpoint(endpoint);
  return jsonReply(200, endpoint);
}

/** This file's handlers of `OPERATIONS`, by operation name (the router checks every operation has one). */
export const webhookEndpointHandlers = { createWebhookEndpoint } satisfies OperationHandlers;
