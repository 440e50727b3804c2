/**
 * The wire format's TypeScript types, without zod.
 *
 * The zod schemas beside this file are the source: `wire-types.generated.ts` holds their
 * types as plain declarations, computed from them by `scripts/generate/generate-wire-types.js`, so that
 * the declaration files of the package root, `pulumi-messaging/client` and
 * `pulumi-messaging/receiver` never load zod's own declarations, which fail to type-check
 * under the `tsconfig.json` that `pulumi new typescript` writes (`moduleResolution: node`, no
 * `esModuleInterop`, no `skipLibCheck`). Only `pulumi-messaging/schemas` exposes zod types.
 * Here too: the constants those modules need, which must not come from a zod module either.
 */
import type { MessagingEvent } from "./wire-types.generated";

export type * from "./wire-types.generated";

/** The most messages one `POST /v1/message_batches` call accepts (spec §8). */
export const MAX_MESSAGES_PER_BATCH = 1000;

/** Event types the spec names. Any other type parses as a generic event. */
export const KNOWN_EVENT_TYPES = ["identity.verification.created", "payment.succeeded"] as const;
/** One of {@link KNOWN_EVENT_TYPES}. */
export type KnownEventType = (typeof KNOWN_EVENT_TYPES)[number];

/** An event of a named type: `type` narrows it. */
export type KnownEvent = { [T in KnownEventType]: MessagingEvent & { type: T } }[KnownEventType];
