/**
 * Every resource kind by name: the one table the dynamic provider's `runtimes` and the plugin
 * read. A new kind is its folder (`schema.ts`, `runtime.ts`, `index.ts` calling `defineKind`,
 * and `resource.ts` for the TypeScript class) and its line in `./index.ts`.
 */
import { kindsByName } from "./define-kind";
import * as kinds from "./index";

export const KINDS = kindsByName(...Object.values(kinds));

/** A kind's name, as the serialized provider records it. */
export type ResourceKind = keyof typeof KINDS;
