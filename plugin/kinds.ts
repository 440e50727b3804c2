/**
 * The resource kinds the plugin serves: every kind of the registry (`provider/kinds/`), under
 * its token. Everything else (runtime, schemas, descriptions, secrets) is the kind's own
 * definition, the one the dynamic provider reads.
 */
import type { KindDefinition } from "../provider/kinds/define-kind";
import { KINDS } from "../provider/kinds/registry";

export type { KindDefinition } from "../provider/kinds/define-kind";

/** The plugin's package name: tokens are `messaging:index:<Kind>`, the executable `pulumi-resource-messaging`. */
export const PACKAGE_NAME = "messaging";

/** A kind's resource type token: `messaging:index:<name>`. */
export const tokenOf = (kind: KindDefinition): string => `${PACKAGE_NAME}:index:${kind.name}`;

/** Every kind the plugin serves. */
export const SERVED_KINDS: readonly KindDefinition[] = Object.values(KINDS);

/** The kind a resource type token names among `kinds`, or undefined. */
export function kindOfToken(token: string, kinds: readonly KindDefinition[] = SERVED_KINDS): KindDefinition | undefined {
  return kinds.find((kind) => tokenOf(kind) === token);
}
