import * as pulumi from "@pulumi/pulumi";
import { IDEMPOTENCY_SCOPE } from "./protocol";
import { refuseImport, resourceScope, warnIfApiKeyNotSecret } from "./resource-options";
import { WEBHOOK_ENDPOINT_SECRET_OUTPUTS } from "./webhook-endpoint-schema";
import { createProviderShell } from "./shell";

/** Inputs of a {@link WebhookEndpoint}. Changing `url`, `events`, `format` or `description` replaces the endpoint. */
export interface WebhookEndpointArgs {
  /** Destination URL (absolute http or https) that receives event notifications. */
  url: pulumi.Input<string>;
  /** Event types to subscribe to, e.g. `payment.succeeded`. At least one; duplicates are dropped. */
  events: pulumi.Input<pulumi.Input<string>[]>;
  /** Notification format: `basic` (default) or `cloudEvents`. */
  format?: pulumi.Input<"basic" | "cloudEvents">;
  /** Free text describing the endpoint's purpose. */
  description?: pulumi.Input<string>;
  /**
   * Bring an endpoint made elsewhere (e.g. in the dashboard) under this stack instead of
   * creating one: its id (`we_…`) and signing secret, recorded as given without calling the
   * service (which cannot be asked about an endpoint), so describe it truthfully in the
   * other inputs. Stored as a Pulumi secret. Removing `adopt` afterwards changes nothing;
   * naming another id replaces the resource; changing only the secret corrects it in state.
   * While `adopt` names the same endpoint, `url`, `events`, `format` and `description` cannot
   * change (the service cannot change them; preview fails saying so). Also the way to finish
   * an endpoint whose secret was never received: its id, and the secret from the dashboard.
   */
  adopt?: pulumi.Input<{ id: pulumi.Input<string>; secret: pulumi.Input<string> }>;
}

// One shell for every endpoint: identical serialized text lets the provider host
// deserialize and configure it once.
const provider = createProviderShell("WebhookEndpoint");

/**
 * A webhook endpoint of the messaging service (`POST /v1/webhooks/endpoints`).
 *
 * The service has no update, delete or retrieve operation, so:
 * - any change to `url`, `events`, `format` or `description` replaces the endpoint (except
 *   an adopted one's, which is refused);
 * - `retainOnDelete` defaults to true: removing the resource (or replacing it) leaves the
 *   old endpoint active in the service, and previews show `delete[retain]`; remove it in the
 *   dashboard (Developers → Webhooks);
 * - `pulumi refresh` keeps the recorded state; the `import` option is refused (use `adopt`).
 *
 * `secret` is a Pulumi secret: feed it to your receiver to verify signatures. If the create's
 * answer had an id but no readable secret, `up` fails and keeps the endpoint without one; the
 * next `up` asks the service again under the same idempotency key, or says what to do.
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
  /** Signing secret of the endpoint (a Pulumi secret); null only while a half-made endpoint awaits its secret. */
  declare public readonly secret: pulumi.Output<string | null>;
  /** Opaque version tag of the endpoint object, or null when the service sent none. */
  declare public readonly etag: pulumi.Output<string | null>;
  /** Endpoint status, e.g. `enabled`, or null. */
  declare public readonly status: pulumi.Output<string | null>;
  /** Creation time, ISO 8601 UTC, or null. */
  declare public readonly created: pulumi.Output<string | null>;
  /** Last change time, ISO 8601 UTC, or null. */
  declare public readonly updated: pulumi.Output<string | null>;
  /** Owning workspace id (`wksp_…`), or null. */
  declare public readonly workspace: pulumi.Output<string | null>;
  /** Live (true) or test (false) mode, or null. */
  declare public readonly live: pulumi.Output<boolean | null>;
  /** Key-value metadata set in the service (not settable on create), or null. */
  declare public readonly metadata: pulumi.Output<Record<string, string> | null>;

  constructor(name: string, args: WebhookEndpointArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("WebhookEndpoint", name, opts, "declare it with `adopt: { id, secret }` instead");
    warnIfApiKeyNotSecret();
    super(
      provider,
      name,
      {
        url: args.url,
        events: args.events,
        format: args.format,
        description: args.description,
        adopt: args.adopt === undefined ? undefined : pulumi.secret(args.adopt),
        // Scopes the create's idempotency key to this resource (see webhook-endpoint-runtime).
        [IDEMPOTENCY_SCOPE]: resourceScope(name, opts),
        // Output-only properties, declared so they appear on the resource.
        secret: undefined,
        etag: undefined,
        status: undefined,
        created: undefined,
        updated: undefined,
        workspace: undefined,
        live: undefined,
        metadata: undefined,
      },
      {
        ...opts,
        retainOnDelete: opts?.retainOnDelete ?? true,
        additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...WEBHOOK_ENDPOINT_SECRET_OUTPUTS],
      },
      "messaging",
      "WebhookEndpoint",
    );
  }
}
