import { UNKNOWN } from "../provider/protocol";

/**
 * A resource's idempotency scope in the form `resourceScope` records: generated SDKs cannot add the class's hidden input. The
 * stack's identity is the provider's id, recorded before any of its resources is created, so a killed `up` redoes its calls
 * under the same keys, and two stacks of one project and name never share a key. Under a parent the place is the whole URN,
 * whose type chain tells two parents apart.
 */
export function idempotencyScopeOf(urn: string, providerId?: string): string {
  // urn:pulumi:<stack>::<project>::<parent types $ >type::<name>
  const match = /^urn:pulumi:([^:]+)::([^:]+)::([^:]+(?::[^:]+)*)::(.+)$/.exec(urn);
  const place = !match || match[3].includes("$") ? urn : `${match[2]}/${match[1]}/${match[4]}`;
  return providerId && providerId !== UNKNOWN ? `${providerId}/${place}` : place;
}
