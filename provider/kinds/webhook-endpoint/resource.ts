import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { Assert, SameType } from "../../../schemas/same-type";
import type { WebhookFormat } from "../../../schemas/types";
import type { ClassOutputs, LivesIn, PlainArgs } from "../define-kind";
import { KindResource } from "../kind-resource";
import { webhookEndpoint } from ".";
import type { WebhookEndpointInputs, WebhookEndpointState } from "./schema";

/** Inputs of a {@link WebhookEndpoint}; each is described in `schema.ts`, the text every SDK carries. A change replaces the endpoint. */
export interface WebhookEndpointArgs {
  url: pulumi.Input<string>;
  events: pulumi.Input<pulumi.Input<string>[]>;
  format?: pulumi.Input<WebhookFormat>;
  description?: pulumi.Input<string>;
  /** Stored as a Pulumi secret. */
  adopt?: pulumi.Input<{ id: pulumi.Input<string>; secret: pulumi.Input<string> }>;
}

/**
 * A webhook endpoint of the messaging service (docs/webhook-endpoint.md). `retainOnDelete` defaults to true: removing or replacing
 * it leaves the old endpoint in the service.
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

type _Outputs = Assert<SameType<ClassOutputs<WebhookEndpoint, typeof WebhookEndpointState>, z.output<typeof WebhookEndpointState>>>;
type _Args = Assert<SameType<PlainArgs<WebhookEndpointArgs>, z.input<typeof WebhookEndpointInputs>>>;
type _LivesIn = Assert<SameType<ClassOutputs<WebhookEndpoint, typeof LivesIn>, z.output<typeof LivesIn>>>;
