/**
 * What tells one stack from every other: a random id made by the first `pulumi up` of a
 * TypeScript program that declares a resource of this package, and kept in the stack's state
 * as the resource `pulumi-messaging-stack-identity` (type `messaging:StackIdentity`). Every
 * create's idempotency key starts from it (`resource-options.ts` `resourceScope`), so two
 * stacks of the same project and name (in two backends, or one destroyed and made again within
 * the service's 24 hours) never share a key, and the service never answers one stack with the
 * other's endpoint or batch. It is recorded before any resource that uses it is created (they
 * take its id as an input), so an `up` killed mid-create redoes its calls under the same keys.
 * The plugin's counterpart is the provider's own id (`plugin/idempotency-scope.ts`).
 */
import * as pulumi from "@pulumi/pulumi";
import { IdentityKey } from "../client/identity-key";
import { readSetting } from "../client/settings";

/** The name of the one identity resource of a stack. */
export const STACK_IDENTITY_NAME = "pulumi-messaging-stack-identity";

/**
 * Serialized into the state. Its diff never replaces it (a later release's text does not
 * either: the dynamic host leaves that to the provider's diff), so the id stays; a changed API
 * key is an update that says so (`stack-identity-runtime.ts`).
 */
const identityProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: Record<string, unknown>) {
    return { id: require("node:crypto").randomUUID(), outs: { keyFingerprint: inputs.keyFingerprint ?? null } };
  },
  async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
    return require("pulumi-messaging/dist/provider/runtime").stackIdentity.diff(olds, news);
  },
  async update(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
    return require("pulumi-messaging/dist/provider/runtime").stackIdentity.update(olds, news);
  },
};

/** The fingerprint of the API key the program's stack config (or environment) gives, if any. */
function apiKeyFingerprint(): string | null {
  const apiKey = readSetting("apiKey", { config: { get: (key) => pulumi.runtime.getConfig(key) } });
  return apiKey === undefined ? null : IdentityKey.fromApiKey(apiKey).fingerprint;
}

class StackIdentity extends pulumi.dynamic.Resource {
  constructor() {
    super(identityProvider, STACK_IDENTITY_NAME, { keyFingerprint: apiKeyFingerprint() }, {}, "messaging", "StackIdentity");
  }
}

// One identity a run: keyed by the run's root stack resource (the Automation API may run several
// programs in one process), and shared by every copy of this package a program loads.
const REGISTRY = Symbol.for("pulumi-messaging.stackIdentity");
const NO_STACK = {};
type Registry = WeakMap<object, pulumi.Output<string>>;

/** The id of this stack's identity resource, declared by the first resource that asks. */
export function stackIdentity(): pulumi.Output<string> {
  const global = globalThis as { [REGISTRY]?: Registry };
  const registry = (global[REGISTRY] ??= new WeakMap());
  const run = pulumi.runtime.getStackResource() ?? NO_STACK;
  let id = registry.get(run);
  if (!id) registry.set(run, (id = new StackIdentity().id));
  return id;
}
