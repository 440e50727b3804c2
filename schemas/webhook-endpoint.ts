import { z } from "zod";
import type { Assert, SameType } from "./same-type";
import type * as types from "./types";

/** Notification formats. The spec does not show the CloudEvents string; `cloudEvents` is our assumption. */
export const WebhookFormat = z.enum(["basic", "cloudEvents"]);
export type WebhookFormat = types.WebhookFormat;
type _WebhookFormat = Assert<SameType<WebhookFormat, z.output<typeof WebhookFormat>>>;

// A lone surrogate cannot be written as UTF-8: form encoding turns it into U+FFFD.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A form field's text, refused where the service would store another value than the one
 * given (and kept in Pulumi state): a lone surrogate (sent as U+FFFD) or a leading U+FEFF (a
 * byte order mark, which UTF-8 decoders drop).
 */
function formText<T extends z.ZodString>(schema: T): T {
  return schema
    .refine((value) => !LONE_SURROGATE.test(value), {
      error: "contains a lone surrogate (half of a UTF-16 pair), which cannot be sent as UTF-8: the service would store U+FFFD instead",
    })
    .refine((value) => !value.startsWith("\uFEFF"), {
      error: "starts with U+FEFF (a byte order mark), which the service's decoder would drop: remove it",
    }) as unknown as T;
}

/**
 * Destination URL: absolute http(s), as written. A tab or line break anywhere, or a control
 * character or space at either end, is refused: URL parsing drops them silently, so
 * deliveries would go to another URL than the one stored.
 */
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

/** Fields of `POST /v1/webhooks/endpoints` (sent form-encoded). */
export const WebhookEndpointCreate = z.strictObject({
  url: WebhookUrl,
  events: z.array(EventType).min(1, { error: "expected at least one event type" }),
  format: WebhookFormat.default("basic"),
  description: formText(z.string()).optional(),
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
