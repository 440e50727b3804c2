/**
 * The MessageBatch resource, defined once: what a user sets, what state records, and
 * which inputs replace it. The runtime and the resource class derive from these.
 */
import { z } from "zod";
import { Message, Stream } from "../schemas";

/** What a user sets. Every input replaces the batch (sends it again) when changed. */
export const MessageBatchInputs = z.object({
  stream: Stream,
  messages: z.array(Message).min(1, { error: "expected at least one message" }),
  triggers: z.array(z.unknown()).optional(),
});
export type MessageBatchInputs = z.output<typeof MessageBatchInputs>;

export const MESSAGE_BATCH_REPLACE_KEYS = Object.keys(MessageBatchInputs.shape) as Array<keyof MessageBatchInputs>;

/**
 * What state records: a digest of the messages rather than a second copy (Pulumi keeps the
 * messages among the inputs), because a part-sent batch's outputs travel in gRPC metadata,
 * which must stay small. `sentAt` is null while the batch is part-sent.
 */
export const MessageBatchState = z.object({
  stream: z.string(),
  triggers: z.array(z.unknown()).nullable(),
  messageCount: z.number(),
  messagesDigest: z.string(),
  idempotencyKeyPrefix: z.string(),
  batchIds: z.array(z.string().nullable()),
  sentAt: z.string().nullable(),
});
export type MessageBatchState = z.infer<typeof MessageBatchState>;

/** Output-only keys: declared on the resource so they appear as outputs. */
export const MESSAGE_BATCH_OUTPUT_ONLY_KEYS = Object.keys(MessageBatchState.shape).filter(
  (key) => !(key in MessageBatchInputs.shape),
) as Array<keyof MessageBatchState>;

/** A v1 digest as state records it (see provider/messages-digest.ts). */
const RecordedDigest = z.string().regex(/^[0-9a-f]{64}$/, { error: "expected a SHA-256 hex digest" });

/**
 * Every state shape this package has written, as `diff` and `update` read it (only what they
 * need; other keys are ignored):
 * - `messagesDigest`: the current shape, and the releases that recorded a digest (v1 or the
 *   legacy locale-ordered one);
 * - `messages`: the first release, which recorded the messages themselves among the outputs
 *   (its part-sent state also lacks `__provider`).
 * `sentAt` is null while a batch is part-sent; `idempotencyKeyPrefix` resumes it.
 */
// The ids of the chunks the service confirmed, in chunk order (every release sent one chunk at
// a time); absent or unreadable, none is taken as confirmed and every chunk is asked again.
const ConfirmedChunks = z.array(z.string().nullable()).optional().catch(undefined);

export const RecordedMessageBatch = z.union([
  z.object({ messagesDigest: RecordedDigest, idempotencyKeyPrefix: z.string(), sentAt: z.string().nullable(), batchIds: ConfirmedChunks }),
  z.object({ messages: z.array(z.unknown()), idempotencyKeyPrefix: z.string(), sentAt: z.string().nullable(), batchIds: ConfirmedChunks }),
]);
export type RecordedMessageBatch = z.infer<typeof RecordedMessageBatch>;

/**
 * Outputs stored and shown as secrets, whatever the inputs: the digest is derived from the
 * messages' content (an unsalted digest of a short text can be reversed by guessing). Used by
 * the TypeScript class (`additionalSecretOutputs`) and the plugin's schema and outputs.
 */
export const MESSAGE_BATCH_SECRET_OUTPUTS = ["messagesDigest"] as const satisfies ReadonlyArray<keyof MessageBatchState>;
