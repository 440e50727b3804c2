// A new kind is its folder (`schema.ts`, `runtime.ts`, `index.ts` calling `defineKind`, `resource.ts`) and its line in `./index.ts`.
import { kindsByName } from "./define-kind";
import * as kinds from "./index";

export const KINDS = kindsByName(...Object.values(kinds));

export type ResourceKind = keyof typeof KINDS;
