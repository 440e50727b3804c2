import * as pulumi from "@pulumi/pulumi";
import { IDEMPOTENCY_SCOPE, RESOURCE_URN } from "../protocol";
import { refuseImport, refuseProtoKeys, resourceProps, resourceScope, warnIfApiKeyNotSecret, withSecretOutputs } from "../resource-options";
import { createProviderShell } from "../shell";
import { KINDS, type ResourceKind } from "./registry";

// One shell a kind: identical serialized text lets the provider host deserialize and configure it once.
const shells = new Map<ResourceKind, pulumi.dynamic.ResourceProvider>();
const shellOf = (kind: ResourceKind): pulumi.dynamic.ResourceProvider => {
  let shell = shells.get(kind);
  if (!shell) shells.set(kind, (shell = createProviderShell(kind)));
  return shell;
};

/**
 * The one constructor of the resource classes. The hidden scope keys the resource's idempotency to its place in the stack; the
 * hidden URN places the provider's lines under the resource.
 * `kind` is a plain string: a `ResourceKind` would bring the registry, and with it zod, into the root's declarations.
 */
export abstract class KindResource extends pulumi.dynamic.Resource {
  protected constructor(
    kind: string,
    name: string,
    args: object,
    opts: pulumi.CustomResourceOptions,
    importInstead: string,
    hidden: pulumi.Inputs = {},
  ) {
    const definition = KINDS[kind as ResourceKind];
    refuseImport(kind, name, opts, importInstead);
    warnIfApiKeyNotSecret();
    super(
      shellOf(definition.name),
      name,
      resourceProps(definition, refuseProtoKeys(kind, name, args), {
        ...hidden,
        [IDEMPOTENCY_SCOPE]: resourceScope(name, opts),
        // Pulumi's provider host hands a provider no URN: the provider's lines go under the resource with it.
        [RESOURCE_URN]: pulumi.createUrn(name, `pulumi-nodejs:dynamic/messaging:${kind}`, opts.parent),
      }),
      withSecretOutputs(definition, opts),
      "messaging",
      kind,
    );
  }
}
