// The plugin serves every kind of the registry under its token, from the same definition the dynamic provider reads.
import type { KindDefinition } from "../provider/kinds/define-kind";
import { KINDS } from "../provider/kinds/registry";

export type { KindDefinition } from "../provider/kinds/define-kind";

/** The plugin's package name: tokens are `messaging:index:<Kind>`, the executable `pulumi-resource-messaging`. */
export const PACKAGE_NAME = "messaging";

export const tokenOf = (kind: KindDefinition): string => `${PACKAGE_NAME}:index:${kind.name}`;

export const SERVED_KINDS: readonly KindDefinition[] = Object.values(KINDS);

export function kindOfToken(token: string, kinds: readonly KindDefinition[] = SERVED_KINDS): KindDefinition | undefined {
  return kinds.find((kind) => tokenOf(kind) === token);
}
