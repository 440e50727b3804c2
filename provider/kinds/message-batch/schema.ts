// The MessageBatch resource's fields, each written once: the runtime, the resource class and the plugin's schema derive from these.
import { z } from "zod";
import { Message, Stream } from "../../../schemas";
import { replacingOnChanges } from "../field-meta";
import { FileAsset } from "./file-asset";

// Exactly one of `messages` and `messagesFile`: said by `check`, since a refinement here would stop it leaving out preview unknowns.
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
    // Secret: the engine records the file's unsalted SHA-256 with the asset, which gives a short file away to whoever guesses it.
    messagesFile: FileAsset.optional().meta({
      pulumiType: "asset",
      secret: true,
      description:
        "A file of messages (a file asset), instead of `messages`: NDJSON (`.ndjson`, `.jsonl`), a JSON array (`.json`) or " +
        "CSV (`.csv`), read as `messaging send` reads it. A secret: the state records the file's hash and the messages' " +
        "digest, encrypted, never the messages; an unchanged file is not read again.",
    }),
    triggers: z.array(z.unknown()).optional().meta({ description: "Arbitrary values; change one to send the same messages again." }),
  }),
);
export type MessageBatchInputs = z.output<typeof MessageBatchInputs>;

// What `check` read from the file, kept among the inputs: `diff` gets only the file's hash, never its path. A secret (the digest).
export const MessagesFileRead = z.object({
  hash: z.string(),
  /** The stream the file was checked against (a JSON file may name its own). */
  stream: z.string(),
  digest: z.string(),
  count: z.number(),
  /** What preview says of the send (`blast-radius.ts`); absent from reads an earlier release recorded. */
  calls: z.number().optional(),
  recipients: z.number().optional(),
  recipientsExact: z.boolean().optional(),
});
export type MessagesFileRead = z.infer<typeof MessagesFileRead>;

/**
 * The hidden input the TypeScript class sends instead of `messages`: one JSON text crosses the engine far faster than many
 * objects. The runtime reads it as `messages`, so digests, keys and cuts are unchanged.
 */
export const MESSAGES_JSON = "messagesJson";

export const MESSAGES_FILE_READ = "messagesFileRead";

// A digest rather than a copy of the messages: a part-sent batch's outputs travel in gRPC metadata, which must stay small.
export const MessageBatchState = z.object({
  stream: z.string().meta({ description: "Stream to send on, e.g. `transactional`." }),
  triggers: z.array(z.unknown()).nullable(),
  messageCount: z.number().meta({ description: "Number of messages in the batch." }),
  // Secret whatever the inputs: an unsalted digest of a short text can be reversed by guessing.
  messagesDigest: z.string().meta({
    secret: true,
    description: "Digest of the messages as sent (SHA-256): what the diff compares. Derived from their content, so a secret.",
  }),
  idempotencyKeyPrefix: z.string().meta({
    description:
      "The batch's id. A batch this release creates (`mb3-…`) keys each call by its own messages; in a batch sent by an " +
      "earlier release it is the prefix of each call's idempotency key (`<prefix>-<i>`).",
  }),
  batchIds: z
    .array(z.string().nullable())
    .meta({ description: "Ids the service returned, one per call of up to 1,000 messages (null where none was returned)." }),
  sentAt: z.string().nullable().meta({ description: "When the last call was accepted, ISO 8601 UTC; null while the batch is part-sent." }),
  pendingCallKey: z
    .string()
    .nullable()
    .meta({
      description:
        "While the batch is part-sent: the idempotency key of the call that was out when sending stopped, which the next " +
        "`pulumi up` sends it under again (the service may have taken it); null when none was out.",
    }),
});
export type MessageBatchState = z.infer<typeof MessageBatchState>;

const RecordedDigest = z.string().regex(/^[0-9a-f]{64}$/, { error: "expected a SHA-256 hex digest" });

// Unreadable, no chunk is taken as confirmed and every chunk is asked again.
const ConfirmedChunks = z.array(z.string().nullable()).optional().catch(undefined);

// `stream` is required: read as missing, it would look changed and send the batch again.
const RecordedBatchFields = {
  stream: z.string(),
  triggers: z.array(z.unknown()).nullish(),
  messageCount: z.number().optional(),
  idempotencyKeyPrefix: z.string(),
  sentAt: z.string().nullable(),
  batchIds: ConfirmedChunks,
  pendingCallKey: z.string().nullish(),
};

/** Every state shape written: a digest (v1 or legacy), or the first release's messages (its part-sent state lacks `__provider`). */
export const RecordedMessageBatch = z.union([
  z.object({ messagesDigest: RecordedDigest, ...RecordedBatchFields }),
  z.object({ messages: z.array(z.unknown()), ...RecordedBatchFields }),
]);
export type RecordedMessageBatch = z.infer<typeof RecordedMessageBatch>;
