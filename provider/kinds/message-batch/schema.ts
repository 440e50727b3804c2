/**
 * The MessageBatch resource's fields, each written once: what a user sets, what state
 * records (with each field's description and secrecy in its `.meta()`), and which inputs
 * replace it. The runtime, the resource class and the plugin's schema derive from these.
 */
import { z } from "zod";
import { Message, Stream } from "../../../schemas";
import { replacingOnChanges } from "../field-meta";
import { FileAsset } from "./file-asset";

/**
 * What a user sets (`stream` is described with its state field). Every
 * input replaces the batch (sends it again) when changed. Exactly one of `messages` and
 * `messagesFile` is set (`check` says so: a refinement here would keep `check` from leaving
 * out the inputs not known at preview).
 */
export const MessageBatchInputs = replacingOnChanges(
  z.object({
    stream: Stream,
    messages: z
      .array(Message)
      .min(1, { error: "expected at least one message" })
      .optional()
      .meta({
        description:
          "Messages to send, any number: they go out in calls of at most 1,000 messages and 10 MiB of JSON. " +
          "Set this or `messagesFile`.",
      }),
    messagesFile: FileAsset.optional().meta({
      pulumiType: "asset",
      description:
        "A file of messages (a file asset), instead of `messages`: NDJSON (`.ndjson`, `.jsonl`), a JSON array (`.json`) or " +
        "CSV (`.csv`), read as `messaging send` reads it. The state records the file's hash and the messages' digest, never " +
        "the messages; an unchanged file is not read again.",
    }),
    triggers: z.array(z.unknown()).optional().meta({ description: "Arbitrary values; change one to send the same messages again." }),
  }),
);
export type MessageBatchInputs = z.output<typeof MessageBatchInputs>;

/**
 * What `check` read from a batch's file, kept among the checked inputs under
 * {@link MESSAGES_FILE_READ} so that `diff` (which gets the file's hash only, never its path)
 * can compare messages, and an unchanged file is not read again. A secret: its digest is
 * derived from the messages' content.
 */
export const MessagesFileRead = z.object({
  /** The file's SHA-256 (hex), as the engine computed it for the asset. */
  hash: z.string(),
  /** The stream the file was checked against (a JSON file may name its own). */
  stream: z.string(),
  /** The v1 digest of the messages (`provider/messages-digest.ts`): the same as for the same messages inline. */
  digest: z.string(),
  /** Messages in the file. */
  count: z.number(),
});
export type MessagesFileRead = z.infer<typeof MessagesFileRead>;

/**
 * The hidden input the TypeScript class sends instead of `messages`: the messages as one JSON
 * text. One string crosses the engine, the gRPC calls, the state and the provider host in a
 * fraction of the time 30,000 objects take on every pass; the runtime reads it as `messages`,
 * so digests, keys and cuts are those of the same messages (and state recorded with `messages`
 * reads as unchanged).
 */
export const MESSAGES_JSON = "messagesJson";

/** The hidden input holding a {@link MessagesFileRead}, set by `check`. */
export const MESSAGES_FILE_READ = "messagesFileRead";

/**
 * What state records: a digest of the messages rather than a second copy (Pulumi keeps the
 * messages among the inputs), because a part-sent batch's outputs travel in gRPC metadata,
 * which must stay small. `sentAt` is null while the batch is part-sent.
 */
export const MessageBatchState = z.object({
  stream: z.string().meta({ description: "Stream to send on, e.g. `transactional`." }),
  triggers: z.array(z.unknown()).nullable(),
  messageCount: z.number().meta({ description: "Number of messages in the batch." }),
  // Secret whatever the inputs: an unsalted digest of a short text can be reversed by guessing.
  messagesDigest: z.string().meta({
    secret: true,
    description: "Digest of the messages as sent (SHA-256): what the diff compares. Derived from their content, so a secret.",
  }),
  idempotencyKeyPrefix: z.string().meta({ description: "Prefix of every chunk's idempotency key (also the resource id)." }),
  batchIds: z
    .array(z.string().nullable())
    .meta({ description: "Ids the service returned, one per call of up to 1,000 messages (null where none was returned)." }),
  sentAt: z.string().nullable().meta({ description: "When the last call was accepted, ISO 8601 UTC; null while the batch is part-sent." }),
});
export type MessageBatchState = z.infer<typeof MessageBatchState>;

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

// What every release recorded beside the messages or their digest. `stream` is required: read
// as missing, it would look changed, and a changed stream replaces the batch (sends it again).
const RecordedBatchFields = {
  stream: z.string(),
  triggers: z.array(z.unknown()).nullish(),
  messageCount: z.number().optional(),
  idempotencyKeyPrefix: z.string(),
  sentAt: z.string().nullable(),
  batchIds: ConfirmedChunks,
};

export const RecordedMessageBatch = z.union([
  z.object({ messagesDigest: RecordedDigest, ...RecordedBatchFields }),
  z.object({ messages: z.array(z.unknown()), ...RecordedBatchFields }),
]);
export type RecordedMessageBatch = z.infer<typeof RecordedMessageBatch>;
