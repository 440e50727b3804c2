/**
 * The WebhookEndpoint resource, defined once: what a user sets, what state records, and
 * which inputs replace it. The runtime and the resource class derive from these.
 */
import { z } from "zod";
import { WebhookEndpointCreate } from "../schemas";

/** An endpoint made elsewhere (e.g. in the dashboard), recorded as given: the service cannot be asked about it. */
export const AdoptedEndpoint = z.strictObject({
  id: z.string().startsWith("we_", { error: "expected the endpoint's id, starting with 'we_'" }),
  secret: z.string().min(1, { error: "expected the endpoint's signing secret" }),
});

/** What a user sets: the create fields, plus `adopt`. */
export const WebhookEndpointInputs = WebhookEndpointCreate.extend({ adopt: AdoptedEndpoint.optional() });
export type WebhookEndpointInputs = z.output<typeof WebhookEndpointInputs>;

/**
 * Inputs that replace the endpoint when changed (the service has no update operation).
 * `adopt` is not among them: it replaces only when it names another endpoint than the
 * recorded one, so removing it after adoption changes nothing (as with Pulumi's `import`).
 */
export const WEBHOOK_ENDPOINT_REPLACE_KEYS = Object.keys(WebhookEndpointCreate.shape) as Array<keyof WebhookEndpointCreate>;

/**
 * What state records. The create fields are recorded as sent, so `diff` (which sees only
 * outputs) compares like with like even if the service normalizes what it echoes. Fields
 * the service may omit are `null` (`undefined` cannot cross the provider protocol);
 * `secret` is null only for an endpoint whose create answer could not be read.
 */
export const WebhookEndpointState = z.object({
  url: z.string(),
  events: z.array(z.string()),
  format: z.string(),
  description: z.string().nullable(),
  secret: z.string().nullable(),
  etag: z.string().nullable(),
  status: z.string().nullable(),
  created: z.string().nullable(),
  updated: z.string().nullable(),
  workspace: z.string().nullable(),
  live: z.boolean().nullable(),
  metadata: z.record(z.string(), z.string()).nullable(),
});
export type WebhookEndpointState = z.infer<typeof WebhookEndpointState>;

/** Output-only keys: declared on the resource so they appear as outputs. */
export const WEBHOOK_ENDPOINT_OUTPUT_ONLY_KEYS = Object.keys(WebhookEndpointState.shape).filter(
  (key) => !(key in WebhookEndpointCreate.shape),
) as Array<keyof WebhookEndpointState>;

/**
 * What a half-made endpoint (its create answered with an id, but no readable secret) records
 * beside its state, so the next `pulumi up` can ask the service again under the same
 * idempotency key, or tell that it must not. Endpoints made half-way by earlier releases lack
 * these keys (read as null).
 */
export const HalfMadeRecord = z.object({
  /** The create's `Idempotency-Key`: asked again under it, the service returns the same endpoint while it remembers the key. */
  createIdempotencyKey: z.string().nullable(),
  /** When the create was sent, ISO 8601 UTC: whether the service can still remember its key. */
  createRequestedAt: z.iso.datetime().nullable(),
  /** Another endpoint the service made when asked again (it had forgotten the key): the service is not asked a third time. */
  strayEndpointId: z.string().nullable(),
});
export type HalfMadeRecord = z.infer<typeof HalfMadeRecord>;

/** Outputs stored and shown as secrets: the signing secret. Used by the TypeScript class and the plugin. */
export const WEBHOOK_ENDPOINT_SECRET_OUTPUTS = ["secret"] as const satisfies ReadonlyArray<keyof WebhookEndpointState>;
