/**
 * A resource's idempotency scope: the start of every create's key (an endpoint's create, a batch's calls). Both routes derive
 * it, the TypeScript class from its name and options, the plugin from the URN, and the form is frozen (golden tests pin it):
 * `s2/<stack identity>/<project>/<parents' types>/<name>`. Neither the stack's name nor the resource's own type is in it, so a
 * `pulumi stack rename` and a program moved between the TypeScript route and the plugin keep every key. The place is still
 * unique in the stack: the engine refuses two resources of one URN, and a URN is the stack, project, type chain and name.
 * (Form 1, in earlier releases, held the stack's name: a rename changed every key.)
 */
export function idempotencyScope(identity: string | undefined, project: string, parentTypes: string, name: string): string {
  return `s2/${identity ?? ""}/${project}/${parentTypes}/${name}`;
}

interface UrnParts {
  readonly project: string;
  /** The type chain: each parent's type, then the resource's own, joined by `$`. */
  readonly types: string;
  readonly name: string;
}

// urn:pulumi:<stack>::<project>::<parent types $ >type::<name>; a name may hold "::".
function urnParts(urn: string): UrnParts | undefined {
  const [head, project, types, ...name] = urn.split("::");
  if (!head?.startsWith("urn:pulumi:") || project === undefined || types === undefined || name.length === 0) return undefined;
  return { project, types, name: name.join("::") };
}

/** The scope of the resource of `urn` (the plugin's route: generated SDKs cannot add the class's hidden input). */
export function idempotencyScopeOfUrn(urn: string, identity: string | undefined): string {
  const parts = urnParts(urn);
  if (!parts) return `s2/${identity ?? ""}/${urn}`;
  return idempotencyScope(identity, parts.project, parts.types.split("$").slice(0, -1).join("$"), parts.name);
}

/** The type chain of a parent's URN: what its children's URNs hold before their own type (nothing for the stack itself). */
export function typeChainOfUrn(urn: string): string {
  const types = urnParts(urn)?.types ?? urn;
  return types === "pulumi:pulumi:Stack" ? "" : types;
}
