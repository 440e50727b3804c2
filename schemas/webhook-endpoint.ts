import { z } from "zod";
import type * as wire from "./wire-types.generated";
import { hasLoneSurrogate } from "./utf8-text";

// The spec does not show the CloudEvents string; `cloudEvents` is our assumption.
export const WebhookFormat = z.enum(["basic", "cloudEvents"]).meta({
  typeDescription: "How a webhook endpoint's notifications are written.",
  valueDescriptions: {
    basic: "The service's own event JSON: `id`, `type`, `created` and `data`.",
    cloudEvents: "The event inside a CloudEvents 1.0 JSON envelope.",
  } satisfies Record<"basic" | "cloudEvents", string>,
});
export type WebhookFormat = wire.WebhookFormat;
/** The format of an endpoint created without one. */
export const DEFAULT_WEBHOOK_FORMAT: WebhookFormat = "basic";

// Refused where the service would store another value than the one in Pulumi state: a lone surrogate, a leading U+FEFF.
function formText<T extends z.ZodString>(schema: T): T {
  return schema
    .refine((value) => !hasLoneSurrogate(value), {
      error: "contains a lone surrogate (half of a UTF-16 pair), which cannot be sent as UTF-8: the service would store U+FFFD instead",
    })
    .refine((value) => !value.startsWith("\uFEFF"), {
      error: "starts with U+FEFF (a byte order mark), which the service's decoder would drop: remove it",
    }) as unknown as T;
}

// Tabs, line breaks, and controls or spaces at either end are refused: URL parsing drops them, so deliveries would go elsewhere.
export const WebhookUrl = formText(z.string())
  .refine((value) => !/[\t\n\r]/.test(value), {
    error: "contains a tab or line break, which URL parsing drops: deliveries would go to another URL than the one given",
  })
  .refine((value) => value === "" || (value.charCodeAt(0) > 0x20 && value.charCodeAt(value.length - 1) > 0x20), {
    error: "starts or ends with a space or control character, which URL parsing drops: remove it",
  })
  .refine(
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
export const EventType = formText(z.string().min(1, { error: "expected a non-empty event type" }));

// Every fact of a field lives only in its `.meta()` (schemas/field-meta.ts): its description (wire types, resource state, every
// SDK, `--help`), the bytes the emulator stores of it (the spec sets none: these keep one endpoint small, so 10,000 fit in
// memory), its wire name when not its own, and whether `messaging endpoints list` shows it.
export const WebhookEndpointCreate = z.strictObject({
  // 8,192 bytes: the request-line length common HTTP servers accept.
  url: WebhookUrl.meta({
    description: "Destination URL (absolute http or https) that receives event notifications.",
    maxBytes: 8192,
    listed: true,
  }),
  events: z.array(EventType).min(1, { error: "expected at least one event type" }).meta({
    description: "Event types to subscribe to, e.g. `payment.succeeded`. At least one; duplicates are dropped.",
    maxBytes: 128,
    maxItems: 64,
    listed: true,
  }),
  format: WebhookFormat.default(DEFAULT_WEBHOOK_FORMAT).meta({
    description: `Notification format, \`${DEFAULT_WEBHOOK_FORMAT}\` when omitted; a change replaces the endpoint.`,
    listed: true,
  }),
  description: formText(z.string())
    .optional()
    .meta({ description: "Free text describing the endpoint's purpose.", maxBytes: 1024, listed: true }),
});
/** What a caller passes to create a webhook endpoint: `format` may be omitted. */
export type WebhookEndpointCreateInput = wire.WebhookEndpointCreateInput;
/** A webhook endpoint creation after validation: `format` is filled in. */
export type WebhookEndpointCreate = wire.WebhookEndpointCreate;

/**
 * The webhook endpoint object (spec §2.2). Only `id` and `secret` are required: a create answer lacking another field must not
 * cost the caller an endpoint that exists and its secret. Unknown fields are kept.
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
export type WebhookEndpointObject = wire.WebhookEndpointObject;
