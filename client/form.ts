import type { WebhookEndpointCreate } from "../schemas/webhook-endpoint";

/**
 * Form body of `POST /v1/webhooks/endpoints` (spec §4.2), sent as `FORM_CONTENT_TYPE`:
 * `url`, `format`, one `events[]` field per event type in the given order, and
 * `description` only when it was given. Takes validated input (`format` already defaulted).
 */
export function encodeWebhookEndpointForm(input: WebhookEndpointCreate): string {
  const form = new URLSearchParams();
  form.append("url", input.url);
  form.append("format", input.format);
  for (const event of input.events) form.append("events[]", event);
  if (input.description !== undefined) form.append("description", input.description);
  return form.toString();
}
