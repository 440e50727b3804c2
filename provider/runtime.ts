// Serialized providers `require("pulumi-messaging/dist/provider/runtime")`, and old state's refresh and destroy run against the
// installed version: this path and the `runtimes` signatures are part of the state format.
import { boundSendingMemory } from "../client/sending-memory";
import type { ResourceRuntime } from "./kinds/define-kind";
import { KINDS, type ResourceKind } from "./kinds/registry";

export type { ResourceImplementation, ResourceRuntime } from "./kinds/define-kind";
export * as stackIdentity from "./stack-identity-runtime";
export type { ResourceKind } from "./kinds/registry";

// Only Pulumi's provider host loads this file (the plugin loads the kinds itself): a process that exists to serve providers, its
// sends and file reads bounded as the plugin's are.
boundSendingMemory();

export const runtimes = Object.fromEntries(Object.values(KINDS).map((kind) => [kind.name, kind.runtime])) as Readonly<
  Record<ResourceKind, ResourceRuntime>
>;
