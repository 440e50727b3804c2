// Serialized providers `require("pulumi-messaging/dist/provider/runtime")`, and old state's refresh and destroy run against the
// installed version: this path and the `runtimes` signatures are part of the state format.
import { boundSendingMemory } from "../client/sending-memory";
import type { ResourceRuntime } from "./kinds/define-kind";
import { KINDS, type ResourceKind } from "./kinds/registry";

export type { ResourceImplementation, ResourceRuntime } from "./kinds/define-kind";
export * as stackIdentity from "./stack-identity-runtime";
export type { ResourceKind } from "./kinds/registry";

// Pulumi's provider host loads this file through the serialized shells (the plugin loads the kinds itself; unit tests import it):
// a process that exists to serve the stack's dynamic providers, ours and any other, whose sends and file reads are bounded as the
// plugin's are. Both flags change only GC pacing and WebAssembly's tier, not what any provider computes.
boundSendingMemory();

export const runtimes = Object.fromEntries(Object.values(KINDS).map((kind) => [kind.name, kind.runtime])) as Readonly<
  Record<ResourceKind, ResourceRuntime>
>;
