import * as pulumi from "@pulumi/pulumi";
import { IDEMPOTENCY_SCOPE } from "../protocol";
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
 * The one constructor of the resource classes: refuses `import` (with what to do instead),
 * warns once of a plain API key, and registers the kind's inputs, its output-only keys, the
 * hidden scope that keys the resource's idempotency to its place in the stack (and the kind's
 * own `hidden` inputs), and its secret outputs. (The kind is named, not passed: the declarations of the package root carry no zod type.)
 */
export abstract class KindResource extends pulumi.dynamic.Resource {
  // `kind` is a plain string here: a `ResourceKind` would bring the registry, and with it zod, into the declarations.
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
      resourceProps(definition, refuseProtoKeys(kind, name, args), { ...hidden, [IDEMPOTENCY_SCOPE]: resourceScope(name, opts) }),
      withSecretOutputs(definition, opts),
      "messaging",
      kind,
    );
  }
}
