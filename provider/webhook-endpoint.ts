import * as pulumi from "@pulumi/pulumi";
import type { WebhookFormat } from "../schemas";
import { createProviderShell } from "./shell";
import { IDEMPOTENCY_SCOPE } from "./webhook-endpoint-runtime";

/** Inputs of a {@link WebhookEndpoint}. Changing any of them replaces the endpoint. */
export interface WebhookEndpointArgs {
  /** Destination URL (absolute http or https) that receives event notifications. */
  url: pulumi.Input<string>;
  /** Event types to subscribe to, e.g. `payment.succeeded`. At least one; duplicates are dropped. */
  events: pulumi.Input<pulumi.Input<string>[]>;
  /** Notification format: `basic` (default) or `cloudEvents`. */
  format?: pulumi.Input<WebhookFormat>;
  /** Free text describing the endpoint's purpose. */
  description?: pulumi.Input<string>;
}

// One shell for every endpoint: identical serialized text lets the provider host
// deserialize and configure it once.
const provider = createProviderShell("WebhookEndpoint");

/**
 * A webhook endpoint of the messaging service (`POST /v1/webhooks/endpoints`).
 *
 * The service has no update, delete or retrieve operation, so:
 * - any change to `url`, `events`, `format` or `description` replaces the endpoint;
 * - `retainOnDelete` defaults to true: removing the resource (or replacing it) leaves the
 *   old endpoint active in the service, and previews show `delete[retain]`; remove it in the
 *   dashboard (Developers → Webhooks);
 * - `pulumi refresh` keeps the recorded state, and `pulumi import` is not possible.
 *
 * `secret` is a Pulumi secret: feed it to your receiver to verify signatures.
 */
export class WebhookEndpoint extends pulumi.dynamic.Resource {
  /** Destination URL. */
  declare public readonly url: pulumi.Output<string>;
  /** Subscribed event types. */
  declare public readonly events: pulumi.Output<string[]>;
  /** `basic` or `cloudEvents`. */
  declare public readonly format: pulumi.Output<string>;
  /** Description, or null. */
  declare public readonly description: pulumi.Output<string | null>;
  /** Signing secret of the endpoint (a Pulumi secret). */
  declare public readonly secret: pulumi.Output<string>;
  /** Opaque version tag of the endpoint object. */
  declare public readonly etag: pulumi.Output<string>;
  /** Endpoint status, e.g. `enabled`. */
  declare public readonly status: pulumi.Output<string>;
  /** Creation time, ISO 8601 UTC. */
  declare public readonly created: pulumi.Output<string>;
  /** Last change time, ISO 8601 UTC. */
  declare public readonly updated: pulumi.Output<string>;
  /** Owning workspace id (`wksp_…`). */
  declare public readonly workspace: pulumi.Output<string>;
  /** Live (true) or test (false) mode. */
  declare public readonly live: pulumi.Output<boolean>;
  /** Key-value metadata set in the service (not settable on create), or null. */
  declare public readonly metadata: pulumi.Output<Record<string, string> | null>;

  constructor(name: string, args: WebhookEndpointArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      {
        url: args.url,
        events: args.events,
        format: args.format,
        description: args.description,
        // Scopes the create's idempotency key to this resource (see webhook-endpoint-runtime).
        [IDEMPOTENCY_SCOPE]: `${pulumi.getProject()}/${pulumi.getStack()}/${name}`,
        // Output-only properties, declared so they appear on the resource.
        secret: undefined, etag: undefined, status: undefined, created: undefined, updated: undefined,
        workspace: undefined, live: undefined, metadata: undefined,
      },
      {
        ...opts,
        retainOnDelete: opts?.retainOnDelete ?? true,
        additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "secret"],
      },
      "messaging",
      "WebhookEndpoint",
    );
  }
}
