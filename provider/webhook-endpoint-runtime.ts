import { createHash } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { isResponseSchemaError, UnsupportedOperationError } from "../errors";
import type { WebhookEndpointCreate, WebhookEndpointObject } from "../schemas";
import { checkKnownInputs } from "./check-inputs";
import type { ProviderContext } from "./context";
import { containsUnknown, IDEMPOTENCY_SCOPE, PROVIDER_KEY, ResourceInitFailedError, UNKNOWN } from "./protocol";
import { WEBHOOK_ENDPOINT_REPLACE_KEYS, WebhookEndpointInputs, WebhookEndpointState } from "./webhook-endpoint-schema";

type Props = Record<string, unknown>;

const DASHBOARD = "the service dashboard (Developers → Webhooks)";

/**
 * Validates with the resource's schema and normalizes: `format` defaults to `basic`,
 * duplicate events are dropped (first occurrence kept). Preview unknowns pass through.
 */
export function check(_context: ProviderContext | undefined, _olds: Props, news: Props): pulumi.dynamic.CheckResult {
  const checked = checkKnownInputs(WebhookEndpointInputs, news);
  if (!checked.ok) return { inputs: news, failures: checked.failures };

  const inputs: Props = { ...news };
  for (const key of WEBHOOK_ENDPOINT_REPLACE_KEYS) {
    const value = checked.unknown.has(key)
      ? news[key]
      : key === "events"
        ? [...new Set(checked.data.events as string[])]
        : checked.data[key];
    if (value === undefined) delete inputs[key];
    else inputs[key] = value;
  }
  return { inputs };
}

function sameValue(key: keyof WebhookEndpointCreate, olds: unknown, news: unknown): boolean {
  if (containsUnknown(news)) return false;
  if (key === "events") {
    if (!Array.isArray(olds) || !Array.isArray(news)) return false;
    const a = new Set(olds);
    const b = new Set(news);
    return a.size === b.size && [...a].every((event) => b.has(event));
  }
  // A missing description is recorded as null.
  return (olds ?? null) === (news ?? null);
}

/** The adopted endpoint named by the inputs, if any (`id` may still be unknown in a preview). */
function adopted(inputs: Props): { id: unknown; secret: unknown } | undefined {
  const adopt = inputs.adopt;
  return typeof adopt === "object" && adopt !== null ? (adopt as { id: unknown; secret: unknown }) : undefined;
}

/**
 * The service has no update operation, so every changed input replaces the endpoint
 * (`events` compare as a set; `__provider` is ignored, so a package upgrade alone changes
 * nothing). An endpoint recorded without a secret (its create answer was lost) is replaced
 * too: it is never finished otherwise, because `pulumi refresh` clears the init error that
 * would make the engine retry it. The only in-place change is correcting an adopted
 * endpoint's secret.
 */
export function diff(context: ProviderContext, id: string, olds: Props, news: Props): pulumi.dynamic.DiffResult {
  const replaces: string[] = WEBHOOK_ENDPOINT_REPLACE_KEYS.filter((key) => !sameValue(key, olds[key], news[key]));
  const adopt = adopted(news);
  if (adopt && (adopt.id === UNKNOWN || adopt.id !== id)) replaces.push("adopt");
  if (typeof olds.secret !== "string") replaces.push("secret");

  if (replaces.length > 0) {
    const why = typeof olds.secret !== "string" ? "its signing secret was never received" : `${replaces.join(", ")} changed`;
    context.warn(
      `webhook endpoint ${id} will be replaced (${why}). The service has no delete operation: ${id} stays active ` +
        `and keeps receiving events until you remove it in ${DASHBOARD}.`,
    );
    return { changes: true, replaces, deleteBeforeReplace: false };
  }
  const secretCorrected = adopt !== undefined && (containsUnknown(adopt.secret) || adopt.secret !== olds.secret);
  return { changes: secretCorrected, replaces: [], deleteBeforeReplace: false };
}

/**
 * The create's idempotency key: the same for every `pulumi up` of the same resource (its
 * URN-like scope, parents included) with the same inputs, so an up that failed after the
 * service made the endpoint (every answer lost) is repaired by the next up, which gets the
 * first endpoint back, not a second one. Without a scope (state from before it existed)
 * the client picks a random key.
 */
export function createIdempotencyKey(scope: unknown, request: WebhookEndpointCreate): string | undefined {
  if (typeof scope !== "string" || scope === "") return undefined;
  const canonical = JSON.stringify([scope, request.url, [...request.events].sort(), request.format, request.description ?? null]);
  return `we-create-${createHash("sha256").update(canonical).digest("hex")}`;
}

function toRequest(inputs: Props): WebhookEndpointCreate {
  return {
    url: inputs.url as string,
    events: inputs.events as string[],
    format: inputs.format as WebhookEndpointCreate["format"],
    ...(typeof inputs.description === "string" ? { description: inputs.description } : {}),
  };
}

/** What state records: the request as sent, and what the service said of the endpoint. */
function toState(request: WebhookEndpointCreate, endpoint: Partial<WebhookEndpointObject>): WebhookEndpointState {
  return {
    ...request,
    description: request.description ?? null,
    secret: endpoint.secret ?? null,
    etag: endpoint.etag ?? null,
    status: endpoint.status ?? null,
    created: endpoint.created ?? null,
    updated: endpoint.updated ?? null,
    workspace: endpoint.workspace ?? null,
    live: endpoint.live ?? null,
    metadata: endpoint.metadata ?? null,
  };
}

/**
 * One form-encoded `POST /v1/webhooks/endpoints`; with `adopt`, no call: the given
 * endpoint is recorded as the user describes it.
 */
export async function create(context: ProviderContext, inputs: Props): Promise<pulumi.dynamic.CreateResult<WebhookEndpointState>> {
  const request = toRequest(inputs);
  const adopt = adopted(inputs);
  if (adopt) return { id: adopt.id as string, outs: toState(request, { secret: adopt.secret as string }) };

  try {
    const endpoint = await context.client().createWebhookEndpoint(request, {
      idempotencyKey: createIdempotencyKey(inputs[IDEMPOTENCY_SCOPE], request),
    });
    return { id: endpoint.id, outs: toState(request, endpoint) };
  } catch (error) {
    if (isResponseSchemaError(error) && error.resourceId) {
      const id = error.resourceId;
      throw new ResourceInitFailedError(
        id,
        [
          `webhook endpoint ${id} was created, but the service's answer could not be read, so its signing secret is unknown ` +
            `(${error.message.split("\n").slice(1).join("; ").trim()}). It is kept in state without a secret; the next ` +
            `\`pulumi up\` replaces it with a new endpoint. ${id} stays active until you remove it in ${DASHBOARD}.`,
        ],
        toState(request, {}),
        inputs,
      );
    }
    throw error;
  }
}

/**
 * Refresh keeps the recorded state, half-made or not: the service has no retrieve
 * operation. (Pulumi's `import` cannot reach this: the host needs recorded state to find
 * the provider, so the resource class refuses the option first.)
 */
export function read(_context: ProviderContext, id: string, props: Props): pulumi.dynamic.ReadResult {
  if (Object.keys(props).every((key) => key === PROVIDER_KEY)) {
    throw new UnsupportedOperationError(
      `Cannot import webhook endpoint ${id}: the service has no operation to retrieve an endpoint. ` +
        "Declare it with `adopt: { id, secret }` instead.",
    );
  }
  return { id, props };
}

/**
 * Reached only to correct an adopted endpoint's secret (recorded as given, no call).
 * Anything else cannot be updated: `diff` replaces on every other change.
 */
export async function update(_context: ProviderContext, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
  const adopt = adopted(news);
  if (adopt && adopt.id === id && typeof adopt.secret === "string") {
    const { [PROVIDER_KEY]: _provider, ...recorded } = olds;
    return { outs: { ...recorded, secret: adopt.secret } };
  }
  throw new UnsupportedOperationError(
    `Webhook endpoint ${id} cannot be updated in place: the service has no update operation. ` +
      "Changes replace the endpoint; this provider should never have been asked to update it.",
  );
}

/**
 * The service has no delete operation. Deleting from the stack never fails (a failure would
 * block `pulumi destroy` and every replacement); it says plainly that the endpoint stays.
 * Only reached with `retainOnDelete: false`: the engine never calls delete otherwise.
 */
export function remove(context: ProviderContext, id: string, props: Props): void {
  const url = typeof props.url === "string" ? ` (${props.url})` : "";
  context.warn(
    `warning: webhook endpoint ${id}${url} was removed from the stack but still exists and stays active in the service: ` +
      `the API has no delete operation. Remove it in ${DASHBOARD}.`,
  );
}
