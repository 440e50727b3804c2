/**
 * The resource kinds the plugin serves, each pointing at what the dynamic provider already
 * defines: the runtime (`provider/runtime.ts` `runtimes`, so both routes run the same code)
 * and the zod schemas of inputs and state (from which the package schema is derived). What
 * is said here and nowhere else: the token, the descriptions a generated SDK shows, and which
 * properties are secret.
 */
import type { z } from "zod";
import { MESSAGE_BATCH_SECRET_OUTPUTS, MessageBatchInputs, MessageBatchState } from "../provider/message-batch-schema";
import { runtimes, type ResourceKind, type ResourceRuntime } from "../provider/runtime";
import { WEBHOOK_ENDPOINT_SECRET_OUTPUTS, WebhookEndpointInputs, WebhookEndpointState } from "../provider/webhook-endpoint-schema";

/** The plugin's package name: tokens are `messaging:index:<Kind>`, the executable `pulumi-resource-messaging`. */
export const PACKAGE_NAME = "messaging";

/** One resource kind as the plugin serves it. */
export interface KindDefinition<I extends z.ZodObject = z.ZodObject, S extends z.ZodObject = z.ZodObject> {
  kind: ResourceKind;
  /** `messaging:index:<kind>`. */
  token: string;
  runtime: ResourceRuntime;
  inputs: I;
  state: S;
  /** Inputs stored and shown as secrets. */
  secretInputs: ReadonlyArray<keyof I["shape"] & string>;
  /** Outputs stored and shown as secrets. */
  secretOutputs: ReadonlyArray<keyof S["shape"] & string>;
  description: string;
  /** Descriptions of properties, by name (inputs and outputs share a name's description). */
  properties: Partial<Record<(keyof I["shape"] | keyof S["shape"]) & string, string>>;
}

function define<I extends z.ZodObject, S extends z.ZodObject>(
  kind: ResourceKind,
  definition: Omit<KindDefinition<I, S>, "kind" | "token" | "runtime">,
): KindDefinition {
  return { kind, token: `${PACKAGE_NAME}:index:${kind}`, runtime: runtimes[kind], ...definition } as unknown as KindDefinition;
}

/** Every kind the plugin serves, by name. */
export const KINDS: Readonly<Record<ResourceKind, KindDefinition>> = {
  WebhookEndpoint: define("WebhookEndpoint", {
    inputs: WebhookEndpointInputs,
    state: WebhookEndpointState,
    secretInputs: ["adopt"],
    secretOutputs: WEBHOOK_ENDPOINT_SECRET_OUTPUTS,
    description:
      "A webhook endpoint of the messaging service (`POST /v1/webhooks/endpoints`). The service has no update, delete or " +
      "retrieve operation: any change replaces the endpoint, deleting it from the stack leaves it active in the service " +
      "(remove it in the dashboard, Developers → Webhooks), refresh keeps the recorded state, and import is refused: use `adopt`.",
    properties: {
      url: "Destination URL (absolute http or https) that receives event notifications.",
      events: "Event types to subscribe to, e.g. `payment.succeeded`. At least one; duplicates are dropped.",
      format: "Notification format: `basic` (default) or `cloudEvents`.",
      description: "Free text describing the endpoint's purpose.",
      adopt:
        "Bring an endpoint made elsewhere (e.g. in the dashboard) under this stack instead of creating one: its id (`we_…`) " +
        "and signing secret, recorded as given without calling the service. Removing it afterwards changes nothing; naming " +
        "another id replaces the resource; changing only the secret corrects it in state.",
      secret: "Signing secret of the endpoint; null only while a half-made endpoint awaits replacement.",
      etag: "Opaque version tag of the endpoint object, or null when the service sent none.",
      status: "Endpoint status, e.g. `enabled`, or null.",
      created: "Creation time, ISO 8601 UTC, or null.",
      updated: "Last change time, ISO 8601 UTC, or null.",
      workspace: "Owning workspace id (`wksp_…`), or null.",
      live: "Live (true) or test (false) mode, or null.",
      metadata: "Key-value metadata set in the service (not settable on create), or null.",
    },
  }),
  MessageBatch: define("MessageBatch", {
    inputs: MessageBatchInputs,
    state: MessageBatchState,
    secretInputs: [],
    secretOutputs: MESSAGE_BATCH_SECRET_OUTPUTS,
    description:
      "Sends a set of messages once, when created; again only when replaced (a change to `stream`, `messages` or " +
      "`triggers`). A send that stops part-way is kept in state and finished by the next `pulumi up` without sending " +
      "anything twice. Deleting it sends nothing and recalls nothing.",
    properties: {
      stream: "Stream to send on, e.g. `transactional`.",
      messages: "Messages to send, any number: they go out in calls of at most 1,000.",
      triggers: "Arbitrary values; change one to send the same messages again.",
      messageCount: "Number of messages in the batch.",
      messagesDigest: "SHA-256 of the messages as sent: what the diff compares.",
      idempotencyKeyPrefix: "Prefix of every chunk's idempotency key (also the resource id).",
      batchIds: "Ids the service returned, one per call of up to 1,000 messages (null where none was returned).",
      sentAt: "When the last call was accepted, ISO 8601 UTC; null while the batch is part-sent.",
    },
  }),
};

/** The kind a resource type token names, or undefined. */
export function kindOfToken(token: string): KindDefinition | undefined {
  return Object.values(KINDS).find((definition) => definition.token === token);
}
