import { UNKNOWN } from "../provider/protocol";

/**
 * The idempotency scope of a resource served by the plugin: the identity of the stack, then
 * the resource's place in it, in the form the TypeScript class records
 * (`provider/resource-options.ts` `resourceScope`). Generated SDKs cannot add the hidden
 * `idempotencyScope` input the class sets, so the plugin derives it here.
 *
 * The stack's identity is the id of the provider resource the engine configured the plugin
 * as: a random id made with the stack's provider and kept in its state (the engine records the
 * provider before any resource of it is created, so an `up` killed mid-create redoes its calls
 * under the same keys). Two stacks of the same project and name, in two backends or one
 * destroyed and made again, have two providers, so they never share a key. Without an id (an
 * engine that sends none) the scope is the place alone.
 *
 * The place: `<project>/<stack>/<name>` for a top-level resource; the whole URN under a parent
 * (the class uses the parent's URN there, which the child's URN does not hold, and the URN's
 * type chain already tells two parents apart).
 */
export function idempotencyScopeOf(urn: string, providerId?: string): string {
  // urn:pulumi:<stack>::<project>::<parent types $ >type::<name>
  const match = /^urn:pulumi:([^:]+)::([^:]+)::([^:]+(?::[^:]+)*)::(.+)$/.exec(urn);
  const place = !match || match[3].includes("$") ? urn : `${match[2]}/${match[1]}/${match[4]}`;
  return providerId && providerId !== UNKNOWN ? `${providerId}/${place}` : place;
}
