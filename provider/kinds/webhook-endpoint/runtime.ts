import { createHash } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { unreadableFields } from "../../../client/unreadable-fields";
import { isResponseSchemaError, UnsupportedOperationError, type ResponseSchemaError } from "../../../errors";
import { WebhookEndpointCreate, type WebhookEndpointObject } from "../../../schemas";
import { formFieldsOf, isRepeatedField, type FormField } from "../../../schemas/form-fields";
import { closestMatch } from "../../../schemas/did-you-mean";
import type { FieldErrors } from "../../../schemas/field-errors";
import { KNOWN_EVENT_TYPES } from "../../../schemas/types";
import { IDEMPOTENCY_KEY_MEMORY_MS } from "../../../schemas/idempotency-key";
import { checkKnownInputs } from "../../check-inputs";
import type { ProviderContext } from "../../context";
import { containsUnknown, IDEMPOTENCY_SCOPE, ResourceInitFailedError, UNKNOWN } from "../../protocol";
import { refuseImportRead, type KindInputs } from "../define-kind";
import { withUnsetAsNull } from "../field-meta";
import {
  RecordedWebhookEndpoint,
  WEBHOOK_ENDPOINT_REPLACE_KEYS,
  WebhookEndpointInputs,
  type HalfMadeRecord,
  WebhookEndpointState,
} from "./schema";
import type { Props } from "../../protocol";

type Inputs = KindInputs<typeof WebhookEndpointInputs>;

export function migrate(recorded: Props): RecordedWebhookEndpoint {
  return RecordedWebhookEndpoint.parse(recorded);
}

const DASHBOARD = "the service dashboard (Developers → Webhooks)";

/** Allowance for clock skew: a half-made endpoint older than the key memory less this is not asked about again. */
export const CLOCK_MARGIN_MS = 60 * 60 * 1000;

const adoptWayOut = (id: string): string =>
  `Get the signing secret of ${id} from ${DASHBOARD} and declare \`adopt: { id: "${id}", secret: <the secret> }\` on this ` +
  "resource: the next `pulumi up` records it without calling the service.";

/** Validates and normalizes (`format` defaulted, duplicate `events` dropped); an adopted endpoint's inputs cannot change. */
export function check(context: ProviderContext | undefined, olds: Props, news: Props): pulumi.dynamic.CheckResult {
  const checked = checkKnownInputs(WebhookEndpointInputs, news);
  if (!checked.ok) return { inputs: news, failures: checked.failures };
  if (context && !checked.unknown.has("events")) warnOfUnknownEvents(context, olds.events, checked.data.events as string[]);

  const inputs: Props = { ...news };
  for (const key of WEBHOOK_ENDPOINT_REPLACE_KEYS) {
    const value = checked.unknown.has(key)
      ? news[key]
      : isRepeatedField(WebhookEndpointCreate, key)
        ? [...new Set(checked.data[key] as unknown[])]
        : checked.data[key];
    if (value === undefined) delete inputs[key];
    else inputs[key] = value;
  }
  const failures = adoptedEndpointChanges(olds, inputs);
  return failures.length > 0 ? { inputs, failures } : { inputs };
}

// The service's full list of event types is not published, so an unknown one is subscribed to as written, but said (with the
// closest known type): `payment.succeded` would otherwise subscribe silently to nothing.
function warnOfUnknownEvents(context: ProviderContext, before: unknown, events: readonly string[]): void {
  const earlier = new Set(Array.isArray(before) ? before : []);
  events.forEach((event, index) => {
    if (KNOWN.has(event) || earlier.has(event)) return;
    const closest = closestMatch(event, KNOWN_EVENT_TYPES);
    context.warn(
      `warning: events[${index}]: ${JSON.stringify(event)} is not an event type the service is known to send` +
        `${closest ? ` (did you mean ${closest}?)` : ""}. It is subscribed to as written, since the service does not publish ` +
        `its full list; the types known are ${KNOWN_EVENT_TYPES.join(" and ")}.`,
    );
  });
}
const KNOWN: ReadonlySet<string> = new Set(KNOWN_EVENT_TYPES);

const adoptedChangeReason = (id: string, key: string): string =>
  `${id} is an adopted endpoint, recorded as you described it, and the service has no operation to change its ${key}: ` +
  `state would record a value the service does not have. Keep the old value, or remove \`adopt\` to have this stack create ` +
  `a new endpoint with these settings (${id} is then left in place, still active in the service).`;

// Refused at preview: recording them would claim a change the service never made. (A replacement is checked again with no
// olds, so this never blocks one.)
function adoptedEndpointChanges(olds: Props, news: Props): pulumi.dynamic.CheckFailure[] {
  const before = adopted(olds);
  const after = adopted(news);
  if (!before || !after || typeof after.id !== "string" || after.id === UNKNOWN || before.id !== after.id) return [];
  return WEBHOOK_ENDPOINT_REPLACE_KEYS.filter((key) => !containsUnknown(news[key]) && !sameValue(key, olds[key], news[key])).map((key) => ({
    property: key,
    reason: adoptedChangeReason(after.id as string, key),
  }));
}

function sameValue(key: keyof WebhookEndpointCreate, olds: unknown, news: unknown): boolean {
  if (containsUnknown(news)) return false;
  if (isRepeatedField(WebhookEndpointCreate, key)) {
    if (!Array.isArray(olds) || !Array.isArray(news)) return false;
    const a = new Set(olds);
    const b = new Set(news);
    return a.size === b.size && [...a].every((event) => b.has(event));
  }
  return (olds ?? null) === (news ?? null);
}

function adopted(inputs: Props): { id: unknown; secret: unknown } | undefined {
  const adopt = inputs.adopt;
  return typeof adopt === "object" && adopt !== null ? (adopt as { id: unknown; secret: unknown }) : undefined;
}

const isHalfMade = (olds: RecordedWebhookEndpoint): boolean => typeof olds.secret !== "string";

/**
 * The service has no update, so every changed input replaces the endpoint. In place: an adopted endpoint's secret, and a
 * half-made endpoint, whose change without replaces makes the engine call `update` even after `pulumi refresh` cleared its init
 * error. Prints nothing: `diff` also runs at preview and refresh.
 */
export function diff(_context: ProviderContext, id: string, olds: RecordedWebhookEndpoint, news: Inputs): pulumi.dynamic.DiffResult {
  const replaces: Array<keyof WebhookEndpointInputs> = WEBHOOK_ENDPOINT_REPLACE_KEYS.filter((key) => !sameValue(key, olds[key], news[key]));
  const adopt = adopted(news);
  if (adopt && (adopt.id === UNKNOWN || adopt.id !== id)) replaces.push("adopt");
  else if (adopt) {
    // A replacement would record new values under the same id, values the service does not have.
    const changed = replaces.filter((key) => !containsUnknown(news[key]));
    if (changed.length > 0) throw new UnsupportedOperationError(changed.map((key) => adoptedChangeReason(id, key)).join("\n"));
  }
  if (replaces.length > 0) return { changes: true, replaces, deleteBeforeReplace: false };
  if (adopt) {
    const secretCorrected = containsUnknown(adopt.secret) || adopt.secret !== olds.secret;
    return { changes: secretCorrected, replaces: [], deleteBeforeReplace: false };
  }
  return { changes: isHalfMade(olds), replaces: [], deleteBeforeReplace: false };
}

/**
 * The same for every `pulumi up` of the same resource and inputs, so an up whose answer was lost gets the first endpoint back, not a
 * second one. Without a scope (older state) the client picks a random key.
 */
export function createIdempotencyKey(
  scope: unknown,
  request: WebhookEndpointCreate,
  fields: readonly FormField[] = formFieldsOf(WebhookEndpointCreate),
): string | undefined {
  if (typeof scope !== "string" || scope === "") return undefined;
  const values = fields.map(({ key, repeated }) => {
    const value: unknown = (request as unknown as Record<string, unknown>)[key];
    return repeated && Array.isArray(value) ? [...value].sort() : (value ?? null);
  });
  // Keys recorded in state took the first four create fields: a later field counts only when set, so old keys are unchanged.
  while (values.length > FIRST_KEY_FIELDS && values.at(-1) === null) values.pop();
  return `we-create-${createHash("sha256")
    .update(JSON.stringify([scope, ...values]))
    .digest("hex")}`;
}

const FIRST_KEY_FIELDS = 4;

// Not parsed again: `check` validated the inputs, and the client checks what it sends.
function toRequest(inputs: Partial<Record<keyof WebhookEndpointCreate, unknown>>): WebhookEndpointCreate {
  const present = WEBHOOK_ENDPOINT_REPLACE_KEYS.filter((key) => inputs[key] != null);
  return Object.fromEntries(present.map((key) => [key, inputs[key]])) as unknown as WebhookEndpointCreate;
}

const nonNull = (olds: RecordedWebhookEndpoint): Partial<WebhookEndpointObject> =>
  Object.fromEntries(Object.entries(olds).filter(([, value]) => value !== null)) as Partial<WebhookEndpointObject>;

const webhookEndpointOutputKeys = Object.keys(WebhookEndpointState.shape).filter(
  (key): key is keyof WebhookEndpointObject & keyof WebhookEndpointState => !(WEBHOOK_ENDPOINT_REPLACE_KEYS as string[]).includes(key),
);

function toState(request: WebhookEndpointCreate, endpoint: Partial<WebhookEndpointObject>): WebhookEndpointState {
  const given = Object.fromEntries(webhookEndpointOutputKeys.map((key) => [key, endpoint[key] ?? null]));
  return { ...withUnsetAsNull(WebhookEndpointCreate, request), ...given } as WebhookEndpointState;
}

/** `field (why), …`: never a value, which could be the secret. */
const describeFields = (fields: FieldErrors): string =>
  Object.entries(fields)
    .map(([field, messages]) => `${field} (${messages.join("; ")})`)
    .join(", ");

function warnOfUnreadableFields(context: ProviderContext, endpoint: WebhookEndpointObject): void {
  const fields = unreadableFields(endpoint);
  if (Object.keys(fields).length === 0) return;
  context.warn(
    `warning: webhook endpoint ${endpoint.id}: the service's answer had fields that could not be read, recorded as null: ` +
      `${describeFields(fields)}. Its id and signing secret were read.`,
  );
}

// The body itself is never quoted: it holds the secret.
const unreadableAnswer = (error: ResponseSchemaError): string => describeFields(error.fieldErrors);

function halfMade(request: WebhookEndpointCreate, record: HalfMadeRecord): WebhookEndpointState & HalfMadeRecord {
  return { ...toState(request, {}), ...record };
}

/**
 * With `adopt`, no call. A usable id and secret are kept even when other fields cannot be read; an id without a readable secret
 * makes a half-made endpoint, recorded with its idempotency key and time, for `update` to finish.
 */
export async function create(context: ProviderContext, inputs: Inputs): Promise<pulumi.dynamic.CreateResult<WebhookEndpointState>> {
  const request = toRequest(inputs);
  const adopt = adopted(inputs);
  if (adopt) return { id: adopt.id as string, outs: toState(request, { secret: adopt.secret as string }) };

  const idempotencyKey = createIdempotencyKey(inputs[IDEMPOTENCY_SCOPE], request);
  const requestedAt = new Date().toISOString();
  try {
    const endpoint = await context.client().createWebhookEndpoint(request, { idempotencyKey });
    warnOfUnreadableFields(context, endpoint);
    return { id: endpoint.id, outs: toState(request, endpoint) };
  } catch (error) {
    if (isResponseSchemaError(error) && error.resourceId) {
      const id = error.resourceId;
      throw new ResourceInitFailedError(
        id,
        [
          `webhook endpoint ${id} was created, but the service's answer could not be read, so its signing secret is unknown ` +
            `(${unreadableAnswer(error)}). It is kept in state without a secret. The next \`pulumi up\` asks the service ` +
            "again under the same idempotency key, which returns this endpoint and its secret while the service remembers " +
            `the key (24 hours). If that fails too, it says what to do.`,
        ],
        halfMade(request, {
          createIdempotencyKey: error.idempotencyKey ?? idempotencyKey ?? null,
          createRequestedAt: requestedAt,
          strayEndpointId: null,
        }),
        inputs,
      );
    }
    throw context.explain(error);
  }
}

function recordedRequest(olds: RecordedWebhookEndpoint): WebhookEndpointCreate {
  return toRequest(olds);
}

/**
 * Asks again with the create's own request and key: a service that remembers the key replays the same endpoint. Every other
 * outcome keeps it half-made. Never asked when the service may have forgotten the key, or once it has
 * made another endpoint: it would make one more.
 */
const finishHalfMade: typeof update = async (context, id, olds, news) => {
  const request = recordedRequest(olds);
  const record: HalfMadeRecord = {
    createIdempotencyKey: olds.createIdempotencyKey,
    createRequestedAt: olds.createRequestedAt,
    strayEndpointId: olds.strayEndpointId,
  };
  const fail = (reason: string, change: Partial<HalfMadeRecord> = {}): ResourceInitFailedError =>
    new ResourceInitFailedError(id, [reason], halfMade(request, { ...record, ...change }), news);
  const stray = (other: string): string =>
    `webhook endpoint ${id}: asked again under its create's idempotency key, the service made another endpoint, ${other}, ` +
    `instead of returning ${id}: it no longer remembered the first request. The stack keeps ${id}, whose signing secret is ` +
    `unknown; ${other} is not in the stack and receives the same events until it is removed in ${DASHBOARD}. The service ` +
    `will not be asked again. ${adoptWayOut(id)}`;

  if (record.strayEndpointId !== null) throw fail(stray(record.strayEndpointId));
  const notAsked = (when: string): ResourceInitFailedError =>
    fail(
      `webhook endpoint ${id} was created ${when}, and its signing secret was never received. Asking the service again ` +
        `could make a second endpoint instead of returning ${id}, so nothing was sent. ${adoptWayOut(id)}`,
    );
  if (record.createIdempotencyKey === null || record.createRequestedAt === null) {
    throw notAsked("by an earlier release of pulumi-messaging, which did not record its create's idempotency key and time");
  }
  if (!(Date.now() - Date.parse(record.createRequestedAt) < IDEMPOTENCY_KEY_MEMORY_MS - CLOCK_MARGIN_MS)) {
    throw notAsked(
      `at ${record.createRequestedAt}, too long ago to rely on the service still remembering its idempotency key (it must ` +
        "remember keys for 24 hours; an hour is allowed for clock differences)",
    );
  }

  let endpoint: WebhookEndpointObject;
  try {
    endpoint = await context.client().createWebhookEndpoint(request, { idempotencyKey: record.createIdempotencyKey });
  } catch (error) {
    if (isResponseSchemaError(error) && error.resourceId === id) {
      throw fail(
        `webhook endpoint ${id}: asked again under its create's idempotency key, the service answered with the same ` +
          `endpoint, and its signing secret still could not be read (${unreadableAnswer(error)}). ${adoptWayOut(id)}`,
      );
    }
    if (isResponseSchemaError(error) && error.resourceId) throw fail(stray(error.resourceId), { strayEndpointId: error.resourceId });
    // Nothing was made: the engine keeps the old state as it was, to be tried again.
    throw context.explain(error);
  }
  if (endpoint.id !== id) throw fail(stray(endpoint.id), { strayEndpointId: endpoint.id });
  warnOfUnreadableFields(context, endpoint);
  return { outs: toState(request, endpoint) };
};

/** Refresh keeps the recorded state: the service has no retrieve operation. */
export function read(_context: ProviderContext, id: string, props: Props): pulumi.dynamic.ReadResult {
  refuseImportRead("webhook endpoint", id, props, "Declare it with `adopt: { id, secret }` instead.");
  return { id, props };
}

/** Only an adopted endpoint's secret (no call) and a half-made endpoint change in place; `diff` replaces on every other change. */
export async function update(
  context: ProviderContext,
  id: string,
  olds: RecordedWebhookEndpoint,
  news: Inputs,
): Promise<pulumi.dynamic.UpdateResult> {
  const adopt = adopted(news);
  if (adopt && adopt.id === id && typeof adopt.secret === "string") {
    return { outs: { ...toState(recordedRequest(olds), nonNull(olds)), secret: adopt.secret } };
  }
  if (isHalfMade(olds)) return finishHalfMade(context, id, olds, news);
  throw new UnsupportedOperationError(
    `Webhook endpoint ${id} cannot be updated in place: the service has no update operation. ` +
      "Changes replace the endpoint; this provider should never have been asked to update it.",
  );
}

/**
 * The service has no delete. Never fails (that would block `pulumi destroy` and every replacement), and names the endpoint by id
 * alone: the host hands delete the state with secrets unmarked, and `url` may hold the receiver's credentials.
 */
export function remove(context: ProviderContext, id: string): void {
  context.warn(
    `warning: webhook endpoint ${id} was removed from the stack but still exists and stays active in the service: ` +
      `the API has no delete operation. Remove it in ${DASHBOARD}.`,
  );
}
