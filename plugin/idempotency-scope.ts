/**
 * The idempotency scope of a resource served by the plugin, from its URN: generated SDKs
 * cannot add the hidden `idempotencyScope` input the TypeScript class sets, and the URN is
 * the resource's place in the stack.
 *
 * A top-level resource gets `<project>/<stack>/<name>`, the form the TypeScript class
 * records, so the same resource has one identity by either route (moving a program from the
 * dynamic provider to the plugin gets the same endpoint back, not a second one). A resource
 * under a parent gets its whole URN: the class uses the parent's URN there, which the child's
 * URN does not hold, and the URN's type chain already tells two parents apart.
 */
export function idempotencyScopeOf(urn: string): string {
  // urn:pulumi:<stack>::<project>::<parent types $ >type::<name>
  const match = /^urn:pulumi:([^:]+)::([^:]+)::([^:]+(?::[^:]+)*)::(.+)$/.exec(urn);
  if (!match) return urn;
  const [, stack, project, qualifiedType, name] = match;
  return qualifiedType.includes("$") ? urn : `${project}/${stack}/${name}`;
}
