/**
 * What tells one stack from every other: the pinned `messaging:stackIdentity`, else a random id kept in state as a resource.
 * Every create's idempotency key starts from it, so two stacks of one project and name (in two backends, or remade within the
 * service's 24 hours) never share a key. The plugin's counterpart is the provider's own id (`plugin/idempotency-scope.ts`).
 */
import * as pulumi from "@pulumi/pulumi";
import { IdentityKey } from "../client/identity-key";
import { readSetting } from "../client/settings";
import { pinnedStackIdentity } from "./stack-identity-pin";

export const STACK_IDENTITY_NAME = "pulumi-messaging-stack-identity";

// Serialized into the state. Its diff never replaces it (nor does a later release's text), so the id stays.
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

/** The pinned identity, else the identity resource's id; every resource waits for that resource either way. */
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
