import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { Assert, SameType } from "../../../schemas/same-type";
import type { ClassOutputs, LivesIn, PlainArgs } from "../define-kind";
import type * as kinds from "../kind-types.generated";
import { KindResource } from "../kind-resource";
import type { ResourceArgs, ResourceOutputs } from "../resource-types";
import { webhookEndpoint } from ".";
import type { WebhookEndpointInputs, WebhookEndpointState } from "./schema";

/** Inputs of a {@link WebhookEndpoint}, as its schema (`schema.ts`) defines them. A change replaces the endpoint. */
export type WebhookEndpointArgs = ResourceArgs<kinds.WebhookEndpointInputs>;

// The engine sets each output on the instance; the class declares them through its kind's state type.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface WebhookEndpoint extends ResourceOutputs<kinds.WebhookEndpointState> {}

/**
 * A webhook endpoint of the messaging service (docs/webhook-endpoint.md). `retainOnDelete` defaults to true: removing or replacing
 * it leaves the old endpoint in the service.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class WebhookEndpoint extends KindResource {
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
