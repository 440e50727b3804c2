/**
 * Every resource kind: the one list the dynamic provider's `runtimes` and the plugin read.
 * A new kind is its folder (`schema.ts`, `runtime.ts`, `index.ts` calling `defineKind`,
 * and `resource.ts` for the TypeScript class) and its name in this list.
 */
import { kindsByName } from "./define-kind";
import { messageBatch } from "./message-batch";
import { webhookEndpoint } from "./webhook-endpoint";

export const KINDS = kindsByName(webhookEndpoint, messageBatch);

/** A kind's name, as the serialized provider records it. */
export type ResourceKind = keyof typeof KINDS;
