// The WebhookEndpoint resource's fields, each written once: the runtime, the resource class and the plugin's schema derive from these.
import { z } from "zod";
import { WebhookEndpointCreate } from "../../../schemas";
import { recordedCreateFields, replaceKeys, replacingOnChanges } from "../field-meta";

export const AdoptedEndpoint = z
  .strictObject({
    id: z
      .string()
      .startsWith("we_", { error: "expected the endpoint's id, starting with 'we_'" })
      .meta({ description: "The endpoint's id, `we_…`." }),
    secret: z
      .string()
      .min(1, { error: "expected the endpoint's signing secret" })
      .meta({ description: "The endpoint's signing secret, as the dashboard shows it." }),
  })
  .meta({
    typeDescription:
      "An endpoint made elsewhere (e.g. in the dashboard), brought under the stack as it is: recorded as given, since the service cannot be asked about it.",
  });

export const WebhookEndpointInputs = replacingOnChanges(WebhookEndpointCreate).extend({
  adopt: AdoptedEndpoint.optional().meta({
    secret: true,
    description:
      "Bring an endpoint made elsewhere (e.g. in the dashboard) under this stack instead of creating one: its id (`we_…`) " +
      "and signing secret, recorded as given without calling the service (which cannot be asked about an endpoint), so " +
      "describe it truthfully in the other inputs. Removing `adopt` afterwards changes nothing; naming another id replaces " +
      "the resource; changing only the secret corrects it in state. While `adopt` names the same endpoint, the other inputs " +
      "cannot change (the service cannot change them; preview fails saying so). Also the way to " +
      "finish an endpoint whose secret was never received: its id, and the secret from the dashboard.",
  }),
});
export type WebhookEndpointInputs = z.output<typeof WebhookEndpointInputs>;

/** Replace the endpoint when changed: the service has no update. `adopt` replaces only when it names another endpoint. */
export const WEBHOOK_ENDPOINT_REPLACE_KEYS = replaceKeys(WebhookEndpointInputs) as Array<keyof WebhookEndpointCreate>;

// Create fields are recorded as sent, so `diff` (which sees only outputs) compares like with like even if the service normalizes
// what it echoes. Absent fields are `null`: `undefined` cannot cross the provider protocol.
export const WebhookEndpointState = z.object({
  ...recordedCreateFields(WebhookEndpointCreate),
  secret: z
    .string()
    .nullable()
    .meta({
      secret: true,
      description:
        "Signing secret of the endpoint (feed it to your receiver to verify signatures); null only while a half-made " +
        "endpoint awaits its secret.",
    }),
  etag: z.string().nullable().meta({ description: "Opaque version tag of the endpoint object, or null when the service sent none." }),
  status: z.string().nullable().meta({ description: "Endpoint status, e.g. `enabled`, or null." }),
  created: z.string().nullable().meta({ description: "Creation time, ISO 8601 UTC, or null." }),
  updated: z.string().nullable().meta({ description: "Last change time, ISO 8601 UTC, or null." }),
  workspace: z.string().nullable().meta({ description: "Owning workspace id (`wksp_…`), or null." }),
  live: z.boolean().nullable().meta({ description: "Live (true) or test (false) mode, or null." }),
  metadata: z
    .record(z.string(), z.string())
    .nullable()
    .meta({ description: "Key-value metadata set in the service (not settable on create), or null." }),
});
export type WebhookEndpointState = z.infer<typeof WebhookEndpointState>;

// A half-made endpoint (an id, no readable secret) records these so the next `up` can ask again under the same key, or know it
// must not. Earlier releases' half-made endpoints lack them (read as null).
export const HalfMadeRecord = z.object({
  /** The create's `Idempotency-Key`: asked again under it, the service returns the same endpoint while it remembers the key. */
  createIdempotencyKey: z.string().nullable(),
  /** Whether the service can still remember the key. */
  createRequestedAt: z.iso.datetime().nullable(),
  /** Another endpoint the service made when asked again (it had forgotten the key): the service is not asked a third time. */
  strayEndpointId: z.string().nullable(),
});
export type HalfMadeRecord = z.infer<typeof HalfMadeRecord>;

// Every state shape this package has written: each field null where absent or unreadable, so one bad field hides no other.
export const RecordedWebhookEndpoint = z.object(
  Object.fromEntries(
    Object.entries({ ...WebhookEndpointState.shape, ...HalfMadeRecord.shape }).map(([key, field]) => [
      key,
      (field as z.ZodType).nullable().catch(null),
    ]),
  ) as { [K in keyof RecordedFields]: z.ZodCatch<z.ZodNullable<RecordedFields[K]>> },
);
type RecordedFields = typeof WebhookEndpointState.shape & typeof HalfMadeRecord.shape;
export type RecordedWebhookEndpoint = z.output<typeof RecordedWebhookEndpoint>;
