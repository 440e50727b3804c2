import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { Assert, SameType } from "../../../schemas/same-type";
import type { WebhookFormat } from "../../../schemas/types";
import type { ClassOutputs, LivesIn, PlainArgs } from "../define-kind";
import { KindResource } from "../kind-resource";
import { webhookEndpoint } from ".";
import type { WebhookEndpointInputs, WebhookEndpointState } from "./schema";

/**
 * Inputs of a {@link WebhookEndpoint}. Changing `url`, `events`, `format` or `description`
 * replaces the endpoint. Each property is described once, in the kind's definition
 * (`provider/kinds/webhook-endpoint/schema.ts`): the text the package schema, and so every
 * generated SDK, carries.
 */
export interface WebhookEndpointArgs {
  url: pulumi.Input<string>;
  events: pulumi.Input<pulumi.Input<string>[]>;
  format?: pulumi.Input<WebhookFormat>;
  description?: pulumi.Input<string>;
  /** Stored as a Pulumi secret. */
  adopt?: pulumi.Input<{ id: pulumi.Input<string>; secret: pulumi.Input<string> }>;
}

/**
 * A webhook endpoint of the messaging service. What it does (replacement, what refresh,
 * import and delete do, `adopt`) and each output are described once, in the kind's
 * definition (`provider/kinds/webhook-endpoint/`), the text the package schema carries;
 * docs/webhook-endpoint.md covers the behaviour. Specific to this class:
 * `retainOnDelete` defaults to true, so removing or replacing the resource leaves the old
 * endpoint in the service and previews show `delete[retain]`.
 */
export class WebhookEndpoint extends KindResource {
  declare public readonly url: pulumi.Output<string>;
  declare public readonly events: pulumi.Output<string[]>;
  declare public readonly format: pulumi.Output<string>;
  declare public readonly description: pulumi.Output<string | null>;
  /** A Pulumi secret. */
  declare public readonly secret: pulumi.Output<string | null>;
  declare public readonly etag: pulumi.Output<string | null>;
  declare public readonly status: pulumi.Output<string | null>;
  declare public readonly created: pulumi.Output<string | null>;
  declare public readonly updated: pulumi.Output<string | null>;
  declare public readonly workspace: pulumi.Output<string | null>;
  declare public readonly live: pulumi.Output<boolean | null>;
  declare public readonly metadata: pulumi.Output<Record<string, string> | null>;
  declare public readonly serviceUrl: pulumi.Output<string | null>;

  constructor(name: string, args: WebhookEndpointArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      webhookEndpoint.name,
      name,
      args,
      { ...opts, retainOnDelete: opts?.retainOnDelete ?? true },
      "declare it with `adopt: { id, secret }` instead",
    );
  }
}

// The class's outputs and Args, checked against the kind's schemas at compile time.
type _Outputs = Assert<SameType<ClassOutputs<WebhookEndpoint, typeof WebhookEndpointState>, z.output<typeof WebhookEndpointState>>>;
type _Args = Assert<SameType<PlainArgs<WebhookEndpointArgs>, z.input<typeof WebhookEndpointInputs>>>;
type _LivesIn = Assert<SameType<ClassOutputs<WebhookEndpoint, typeof LivesIn>, z.output<typeof LivesIn>>>;
