/** URNs as the engine builds them (deployment.go `generateURN`, urn/urn.go `New`). */

/** `urn:pulumi:<stack>::<project>::<qualified type>::<name>`: the type is prefixed by the parent's qualified type, unless the parent is the root stack. */
export function generateUrn(stack: string, project: string, parentUrn: string, type: string, name: string): string {
  const parentType = parentUrn ? qualifiedType(parentUrn) : "";
  const qualified = parentType && parentType !== "pulumi:pulumi:Stack" ? `${parentType}$${type}` : type;
  return `urn:pulumi:${stack}::${project}::${qualified}::${name}`;
}

/** The type part of a URN, parents' types included (`a$b$c`). */
export function qualifiedType(urn: string): string {
  return urn.split("::")[2] ?? "";
}

/** The resource type of a URN, its parents' types left out (urn.go `URN.Type`): what providers are sent as `type`. */
export function urnType(urn: string): string {
  const qualified = qualifiedType(urn);
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}

/** The name part of a URN, everything after its type (urn.go `URN.Name`): what providers are sent as `name`. */
export function urnName(urn: string): string {
  return urn.split("::").slice(3).join("::");
}
