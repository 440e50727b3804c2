import { z } from "zod";

/** Notification formats. The spec does not show the CloudEvents string; `cloudEvents` is our assumption. */
export const WebhookFormat = z.enum(["basic", "cloudEvents"]);
export type WebhookFormat = z.infer<typeof WebhookFormat>;

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
export type WebhookEndpointCreateInput = z.input<typeof WebhookEndpointCreate>;
/** After validation: `format` is filled in. */
export type WebhookEndpointCreate = z.output<typeof WebhookEndpointCreate>;

/** The webhook endpoint object (spec §2.2). Unknown extra fields are kept. */
export const WebhookEndpoint = z.looseObject({
  id: z.string().startsWith("we_", { error: "expected an id starting with 'we_'" }),
  created: z.string(),
  updated: z.string(),
  format: z.string(),
  secret: z.string().min(1),
  workspace: z.string(),
  live: z.boolean(),
  etag: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable().optional(),
  status: z.string(),
  url: z.string(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;
