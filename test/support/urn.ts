/** The parts of a URN a provider is sent: `urn:pulumi:<stack>::<project>::<type>::<name>`. */

/** The resource type of a URN, its parents' types left out (`URN.Type`): what providers are sent as `type`. */
export function urnType(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}

/** The name part of a URN, everything after its type (`URN.Name`): what providers are sent as `name`. */
export function urnName(urn: string): string {
  return urn.split("::").slice(3).join("::");
}
