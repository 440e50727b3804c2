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
