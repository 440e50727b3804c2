import { createHash } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { MessagingClient } from "../client";
import { isResponseSchemaError, UnsupportedOperationError } from "../errors";
import { WebhookEndpointCreate } from "../schemas";
import { checkKnownInputs } from "./check-inputs";
import { ResourceInitFailedError } from "./init-failed";
import { ProviderSettings } from "./settings";
import { containsUnknown } from "./unknown";

/**
 * The outputs recorded in state. The four inputs are recorded as sent, so `diff` (which
 * sees only outputs) compares like with like even if the service normalizes what it echoes.
 * Fields the service may omit are `null`: `undefined` cannot cross the provider protocol.
 */
export interface WebhookEndpointOutputs {
  url: string;
  events: string[];
  format: string;
  description: string | null;
  secret: string;
  etag: string | null;
  status: string | null;
  created: string | null;
  updated: string | null;
  workspace: string | null;
  live: boolean | null;
  metadata: Record<string, string> | null;
}

/** Hidden input set by the resource: `<project>/<stack>/<name>`, the scope of the create's idempotency key. */
export const IDEMPOTENCY_SCOPE = "idempotencyScope";

/** Inputs a user can set; every one of them replaces the endpoint when changed. */
export const WEBHOOK_ENDPOINT_INPUTS = ["url", "events", "format", "description"] as const;

const DASHBOARD = "the service dashboard (Developers → Webhooks)";

function dedupe(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/**
 * Validates with the shared schema and normalizes: `format` defaults to `basic`, duplicate
 * events are dropped (first occurrence kept). Preview unknowns pass through as they are.
 */
export function check(news: Record<string, unknown>): pulumi.dynamic.CheckResult {
  const checked = checkKnownInputs(WebhookEndpointCreate, news);
  if (!checked.ok) return { inputs: news, failures: checked.failures };

  const inputs: Record<string, unknown> = { ...news };
  for (const key of WEBHOOK_ENDPOINT_INPUTS) {
    const value = checked.unknown.has(key) ? news[key] : key === "events" ? dedupe(checked.data.events as string[]) : checked.data[key];
    if (value === undefined) delete inputs[key];
    else inputs[key] = value;
  }
  return { inputs };
}

function sameEvents(olds: unknown, news: unknown): boolean {
  if (!Array.isArray(olds) || !Array.isArray(news)) return false;
  const a = new Set(olds);
  const b = new Set(news);
  return a.size === b.size && [...a].every((event) => b.has(event));
}

function sameValue(key: (typeof WEBHOOK_ENDPOINT_INPUTS)[number], olds: unknown, news: unknown): boolean {
  if (containsUnknown(news)) return false;
  if (key === "events") return sameEvents(olds, news);
  // A missing description is recorded as null.
  return (olds ?? null) === (news ?? null);
}

/**
 * The service has no update operation, so every changed input replaces the endpoint.
 * `events` compare as a set; `__provider` is ignored, so a package upgrade alone changes nothing.
 */
export function diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): pulumi.dynamic.DiffResult {
  const replaces = WEBHOOK_ENDPOINT_INPUTS.filter((key) => !sameValue(key, olds[key], news[key]));
  if (replaces.length > 0) {
    // The retained old endpoint keeps receiving events: say so where the plan is made.
    process.stderr.write(
      `note: webhook endpoint ${id} will be replaced (${replaces.join(", ")} changed). The service has no delete operation: ` +
        `${id} stays active and keeps receiving events until you remove it in ${DASHBOARD}.\n`,
    );
  }
  return { changes: replaces.length > 0, replaces: [...replaces], deleteBeforeReplace: false };
}

/**
 * The create's idempotency key: the same for every `pulumi up` of the same resource with
 * the same inputs, so an up that failed after the service made the endpoint (every answer
 * lost) is repaired by the next up, which gets the first endpoint back, not a second one.
 * Without a scope (state from before it existed) the client picks a random key.
 */
export function createIdempotencyKey(scope: unknown, request: Record<string, unknown>): string | undefined {
  if (typeof scope !== "string" || scope === "") return undefined;
  const canonical = JSON.stringify([scope, request.url, [...(request.events as string[])].sort(), request.format, request.description ?? null]);
  return `we-create-${createHash("sha256").update(canonical).digest("hex")}`;
}

/** One form-encoded `POST /v1/webhooks/endpoints`. */
export async function create(settings: ProviderSettings, inputs: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult<WebhookEndpointOutputs>> {
  const request = {
    url: inputs.url as string,
    events: inputs.events as string[],
    format: inputs.format as "basic" | "cloudEvents",
    ...(typeof inputs.description === "string" ? { description: inputs.description } : {}),
  };
  const client = new MessagingClient(settings);
  try {
    const endpoint = await client.createWebhookEndpoint(request, {
      idempotencyKey: createIdempotencyKey(inputs[IDEMPOTENCY_SCOPE], request),
    });
    return {
      id: endpoint.id,
      outs: {
        ...request,
        description: request.description ?? null,
        secret: endpoint.secret,
        etag: endpoint.etag ?? null,
        status: endpoint.status ?? null,
        created: endpoint.created ?? null,
        updated: endpoint.updated ?? null,
        workspace: endpoint.workspace ?? null,
        live: endpoint.live ?? null,
        metadata: endpoint.metadata ?? null,
      },
    };
  } catch (error) {
    if (isResponseSchemaError(error) && error.resourceId) {
      throw new ResourceInitFailedError(
        `${error.message}\nWebhook endpoint ${error.resourceId} exists in the service and is kept in state; ` +
          `its secret could not be read. Remove it in ${DASHBOARD} and run \`pulumi up --replace\` on it.`,
        error.resourceId,
        { ...request, description: request.description ?? null },
      );
    }
    throw error;
  } finally {
    await client.close();
  }
}

/**
 * Refresh keeps the recorded state: the service has no retrieve operation. Import has no
 * recorded state to keep, so it fails and says why.
 */
export function read(id: string, props: Record<string, unknown> | undefined): pulumi.dynamic.ReadResult {
  if (!props || typeof props.secret !== "string") {
    throw new UnsupportedOperationError(
      `Cannot import webhook endpoint ${id}: the service has no operation to retrieve an endpoint, so its secret and settings ` +
        `cannot be read. Declare a new WebhookEndpoint instead, and remove ${id} in ${DASHBOARD} if it is no longer needed.`,
    );
  }
  return { id, props };
}

/**
 * Never reached for a healthy endpoint: `diff` replaces on every change. The engine does call
 * it for an endpoint recorded half-made (its create answer could not be read), to retry
 * initialisation; nothing can complete it, so it fails saying how to recover.
 */
export async function update(_settings: () => ProviderSettings, id: string, olds: Record<string, unknown>): Promise<never> {
  if (typeof olds.secret !== "string") {
    throw new UnsupportedOperationError(
      `Webhook endpoint ${id} was created but its answer could not be read, so its secret is unknown. ` +
        `Replace it (\`pulumi up --replace <urn>\`) and remove ${id} in ${DASHBOARD}.`,
    );
  }
  throw new UnsupportedOperationError(
    `Webhook endpoint ${id} cannot be updated in place: the service has no update operation. ` +
      `Changes replace the endpoint; this provider should never have been asked to update it.`,
  );
}

/**
 * The service has no delete operation. Deleting from the stack never fails (a failure would
 * block `pulumi destroy` and every replacement); it says plainly that the endpoint stays.
 */
export function remove(id: string, props: Record<string, unknown> | undefined): void {
  const url = typeof props?.url === "string" ? ` (${props.url})` : "";
  const message =
    `warning: webhook endpoint ${id}${url} was removed from the stack but still exists and stays active in the service: ` +
    `the API has no delete operation. Remove it in ${DASHBOARD}.`;
  process.stderr.write(`${message}\n`);
}
