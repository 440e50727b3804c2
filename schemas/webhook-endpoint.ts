import { z } from "zod";
import type { Assert, SameType } from "./same-type";
import type * as types from "./types";

/** Notification formats. The spec does not show the CloudEvents string; `cloudEvents` is our assumption. */
export const WebhookFormat = z.enum(["basic", "cloudEvents"]);
export type WebhookFormat = types.WebhookFormat;
type _WebhookFormat = Assert<SameType<WebhookFormat, z.output<typeof WebhookFormat>>>;

/** Destination URL: absolute http(s). */
export const WebhookUrl = z.string().refine(
  (value) => {
    try {
      const { protocol } = new URL(value);
      return protocol === "https:" || protocol === "http:";
    } catch {
      return false;
    }
  },
  { error: "expected an absolute http(s) URL" },
);

/** An event type name such as `payment.succeeded`. */
export const EventType = z.string().min(1, { error: "expected a non-empty event type" });

/** Fields of `POST /v1/webhooks/endpoints` (sent form-encoded). */
export const WebhookEndpointCreate = z.strictObject({
  url: WebhookUrl,
  events: z.array(EventType).min(1, { error: "expected at least one event type" }),
  format: WebhookFormat.default("basic"),
  description: z.string().optional(),
});
/** What a caller passes: `format` may be omitted. */
export type WebhookEndpointCreateInput = types.WebhookEndpointCreateInput;
type _WebhookEndpointCreateInput = Assert<SameType<WebhookEndpointCreateInput, z.input<typeof WebhookEndpointCreate>>>;
/** After validation: `format` is filled in. */
export type WebhookEndpointCreate = types.WebhookEndpointCreate;
type _WebhookEndpointCreate = Assert<SameType<WebhookEndpointCreate, z.output<typeof WebhookEndpointCreate>>>;

/**
 * The webhook endpoint object (spec §2.2), as the client reads it from the service.
 *
 * Only `id` (prefix `we_`) and `secret` are required: they are what a caller cannot do
 * without, and a create answer that lacks some other field must not cost the caller an
 * endpoint that exists and its secret. Every other field of §2.2 may be missing or null and
 * is typed when present. Unknown extra fields are kept. (Named `…Object` because the package
 * root exports the Pulumi resource as `WebhookEndpoint`.)
 */
export const WebhookEndpointObject = z.looseObject({
  id: z.string().startsWith("we_", { error: "expected an id starting with 'we_'" }),
  secret: z.string().min(1, { error: "expected a non-empty signing secret" }),
  created: z.string().nullish(),
  updated: z.string().nullish(),
  format: z.string().nullish(),
  workspace: z.string().nullish(),
  live: z.boolean().nullish(),
  etag: z.string().nullish(),
  events: z.array(z.string()).nullish(),
  description: z.string().nullish(),
  status: z.string().nullish(),
  url: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});
export type WebhookEndpointObject = types.WebhookEndpointObject;
type _WebhookEndpointObject = Assert<SameType<WebhookEndpointObject, z.output<typeof WebhookEndpointObject>>>;
