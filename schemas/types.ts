// The wire types without zod (generated from the schemas), and the constants the root, `/client` and `/receiver` need:
// zod's declarations fail to type-check under the tsconfig `pulumi new typescript` writes, so those entry points never load them.
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
