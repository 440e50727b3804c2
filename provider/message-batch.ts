import * as pulumi from "@pulumi/pulumi";
import type { Message } from "../schemas";
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
 * `stream`, `messages` or `triggers`). Deleting it sends nothing and recalls nothing.
 */
export class MessageBatch extends pulumi.dynamic.Resource {
  /** Stream the messages were sent on. */
  declare public readonly stream: pulumi.Output<string>;
  /** Number of messages sent. */
  declare public readonly messageCount: pulumi.Output<number>;
  /** Ids the service returned, one per call of up to 1,000 messages (null where none was returned). */
  declare public readonly batchIds: pulumi.Output<(string | null)[]>;
  /** SHA-256 of the messages as sent: what `diff` compares. */
  declare public readonly messagesDigest: pulumi.Output<string>;
  /** When the last call was accepted, ISO 8601 UTC. */
  declare public readonly sentAt: pulumi.Output<string>;

  constructor(name: string, args: MessageBatchArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      {
        stream: args.stream, messages: args.messages, triggers: args.triggers,
        messageCount: undefined, messagesDigest: undefined, batchIds: undefined, sentAt: undefined,
      },
      opts,
      "messaging",
      "MessageBatch",
    );
  }
}
