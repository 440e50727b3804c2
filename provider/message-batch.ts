import * as pulumi from "@pulumi/pulumi";
import type { Message } from "../schemas/types";
import { MESSAGE_BATCH_SECRET_OUTPUTS } from "./message-batch-schema";
import { refuseImport, warnIfApiKeyNotSecret } from "./resource-options";
import { createProviderShell } from "./shell";

/** Inputs of a {@link MessageBatch}. Changing any of them replaces the batch: it is sent again. */
export interface MessageBatchArgs {
  /** Stream to send on, e.g. `transactional`. */
  stream: pulumi.Input<string>;
  /** Messages to send, any number: they go out in calls of at most 1,000. */
  messages: pulumi.Input<pulumi.Input<Message>[]>;
  /** Arbitrary values; change one to send the same messages again. */
  triggers?: pulumi.Input<unknown[]>;
}

const provider = createProviderShell("MessageBatch");

/**
 * Sends a set of messages once, when created; again only when replaced (a change to
 * `stream`, `messages` or `triggers`). A send that stops part-way is kept in state and
 * finished by the next `pulumi up` without sending anything twice. Deleting it sends
 * nothing and recalls nothing. State written by earlier releases of this package is read as
 * it is: an upgrade alone sends nothing.
 */
export class MessageBatch extends pulumi.dynamic.Resource {
  /** Stream the messages were sent on. */
  declare public readonly stream: pulumi.Output<string>;
  /** The triggers the batch was sent with, or null. */
  declare public readonly triggers: pulumi.Output<unknown[] | null>;
  /** Number of messages in the batch. */
  declare public readonly messageCount: pulumi.Output<number>;
  /**
   * Digest of the messages as sent (SHA-256, see provider/messages-digest.ts): what `diff`
   * compares. A Pulumi secret: derived from the messages' content, it is never stored in
   * plain text.
   */
  declare public readonly messagesDigest: pulumi.Output<string>;
  /** Prefix of every chunk's idempotency key (also the resource id). */
  declare public readonly idempotencyKeyPrefix: pulumi.Output<string>;
  /** Ids the service returned, one per call of up to 1,000 messages (null where none was returned). */
  declare public readonly batchIds: pulumi.Output<(string | null)[]>;
  /** When the last call was accepted, ISO 8601 UTC; null while the batch is part-sent. */
  declare public readonly sentAt: pulumi.Output<string | null>;

  constructor(name: string, args: MessageBatchArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("MessageBatch", name, opts, "declare a new MessageBatch (it sends its messages when created)");
    warnIfApiKeyNotSecret();
    super(
      provider,
      name,
      {
        stream: args.stream,
        messages: args.messages,
        triggers: args.triggers,
        messageCount: undefined,
        messagesDigest: undefined,
        idempotencyKeyPrefix: undefined,
        batchIds: undefined,
        sentAt: undefined,
      },
      // An unsalted digest of short texts can be reversed by guessing: encrypted in state like the messages can be.
      { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...MESSAGE_BATCH_SECRET_OUTPUTS] },
      "messaging",
      "MessageBatch",
    );
  }
}
