/**
 * The implementation that serialized providers call into, by package path:
 * `require("pulumi-messaging/dist/provider/runtime")`.
 *
 * This module path is part of the state format: every stack records a provider that
 * requires it, and `refresh`/`destroy` of old state run against the installed version.
 * Keep the path and the `runtimes` signatures stable across releases.
 */
import type { ResourceRuntime } from "./kinds/define-kind";
import { KINDS, type ResourceKind } from "./kinds/registry";

export type { ResourceImplementation, ResourceRuntime } from "./kinds/define-kind";
/** Called by the stack identity's serialized provider (`stack-identity.ts`). */
export * as stackIdentity from "./stack-identity-runtime";
export type { ResourceKind } from "./kinds/registry";

/** Looked up by kind from the serialized provider: every kind of the registry. */
export const runtimes = Object.fromEntries(Object.values(KINDS).map((kind) => [kind.name, kind.runtime])) as Readonly<
  Record<ResourceKind, ResourceRuntime>
>;
