/**
 * What tells one stack from every other: `messaging:stackIdentity` when the stack's config pins
 * one (`stack-identity-pin.ts`), else a random id made by the first `pulumi up` of a TypeScript
 * program that declares a resource of this package, and kept in the stack's state as the
 * resource `pulumi-messaging-stack-identity` (type `messaging:StackIdentity`). Every create's
 * idempotency key starts from it (`resource-options.ts` `resourceScope`), so two stacks of the
 * same project and name (in two backends, or one destroyed and made again within the service's
 * 24 hours) never share a key. The resource is declared either way, and recorded before any
 * resource that uses the identity is created (they take its id as an input): it records the
 * API key's fingerprint and the pin, so a change of either is said before a create. The plugin's
 * counterpart is the provider's own id (`plugin/idempotency-scope.ts`).
 */
import * as pulumi from "@pulumi/pulumi";
import { IdentityKey } from "../client/identity-key";
import { readSetting } from "../client/settings";
import { pinnedStackIdentity } from "./stack-identity-pin";

/** The name of the one identity resource of a stack. */
export const STACK_IDENTITY_NAME = "pulumi-messaging-stack-identity";

/**
 * Serialized into the state. Its diff never replaces it (a later release's text does not
 * either: the dynamic host leaves that to the provider's diff), so the id stays; a changed API
 * key is an update that says so (`stack-identity-runtime.ts`).
 */
const identityProvider: pulumi.dynamic.ResourceProvider = {
  async check(olds: Record<string, unknown>, news: Record<string, unknown>) {
    return require("pulumi-messaging/dist/provider/runtime").stackIdentity.check(olds ?? {}, news);
  },
  async create(inputs: Record<string, unknown>) {
    return {
      id: require("node:crypto").randomUUID(),
      outs: { keyFingerprint: inputs.keyFingerprint ?? null, pinned: inputs.pinned ?? null },
    };
  },
  async diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
    return require("pulumi-messaging/dist/provider/runtime").stackIdentity.diff(olds, news, id);
  },
  async update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
    return require("pulumi-messaging/dist/provider/runtime").stackIdentity.update(olds, news, undefined, id);
  },
};

/** The fingerprint of the API key the program's stack config (or environment) gives, if any. */
function apiKeyFingerprint(): string | null {
  const apiKey = readSetting("apiKey", { config: { get: (key) => pulumi.runtime.getConfig(key) } });
  return apiKey === undefined ? null : IdentityKey.fromApiKey(apiKey).fingerprint;
}

class StackIdentity extends pulumi.dynamic.Resource {
  constructor(pinned: string | undefined) {
    super(
      identityProvider,
      STACK_IDENTITY_NAME,
      { keyFingerprint: apiKeyFingerprint(), pinned: pinned ?? null },
      {},
      "messaging",
      "StackIdentity",
    );
  }
}

// One identity a run: keyed by the run's root stack resource (the Automation API may run several
// programs in one process), and shared by every copy of this package a program loads.
const REGISTRY = Symbol.for("pulumi-messaging.stackIdentity");
const NO_STACK = {};
type Registry = WeakMap<object, pulumi.Output<string>>;

/**
 * This stack's identity: the pinned one, else the id of its identity resource. The resource is
 * declared by the first resource that asks, and every resource waits for it either way.
 */
export function stackIdentity(): pulumi.Output<string> {
  const global = globalThis as { [REGISTRY]?: Registry };
  const registry = (global[REGISTRY] ??= new WeakMap());
  const run = pulumi.runtime.getStackResource() ?? NO_STACK;
  let identity = registry.get(run);
  if (!identity) {
    const pinned = pinnedStackIdentity((key) => pulumi.runtime.getConfig(key));
    const resource = new StackIdentity(pinned);
    registry.set(run, (identity = pinned === undefined ? resource.id : resource.id.apply(() => pinned)));
  }
  return identity;
}
