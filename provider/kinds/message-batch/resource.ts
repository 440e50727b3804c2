import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { Assert, SameType } from "../../../schemas/same-type";
import type { Message } from "../../../schemas/types";
import type { ClassOutputs, LivesIn, PlainArgs } from "../define-kind";
import { KindResource } from "../kind-resource";
import { messageBatch } from ".";
import type { MessageBatchInputs, MessageBatchState } from "./schema";

/**
 * Inputs of a {@link MessageBatch}. Changing any of them replaces the batch: it is sent
 * again. Each property is described once, in the kind's definition
 * (`provider/kinds/message-batch/schema.ts`): the text the package schema, and so every
 * generated SDK, carries.
 */
export interface MessageBatchArgs {
  stream: pulumi.Input<string>;
  messages: pulumi.Input<pulumi.Input<Message>[]>;
  triggers?: pulumi.Input<unknown[]>;
}

/**
 * A set of messages sent once. What it does (when it sends again, how a part-sent batch is
 * finished, what delete does) and each output are described once, in the kind's definition
 * (`provider/kinds/message-batch/`), the text the package schema carries; docs/message-batch.md
 * covers the behaviour.
 */
export class MessageBatch extends KindResource {
  declare public readonly stream: pulumi.Output<string>;
  declare public readonly triggers: pulumi.Output<unknown[] | null>;
  declare public readonly messageCount: pulumi.Output<number>;
  /** A Pulumi secret. */
  declare public readonly messagesDigest: pulumi.Output<string>;
  declare public readonly idempotencyKeyPrefix: pulumi.Output<string>;
  declare public readonly batchIds: pulumi.Output<(string | null)[]>;
  declare public readonly sentAt: pulumi.Output<string | null>;
  declare public readonly serviceUrl: pulumi.Output<string | null>;

  constructor(name: string, args: MessageBatchArgs, opts?: pulumi.CustomResourceOptions) {
    super(messageBatch.name, name, args, { ...opts }, "declare a new MessageBatch (it sends its messages when created)");
  }
}

// The class's outputs and Args, checked against the kind's schemas at compile time.
type _Outputs = Assert<SameType<ClassOutputs<MessageBatch, typeof MessageBatchState>, z.output<typeof MessageBatchState>>>;
type _Args = Assert<SameType<PlainArgs<MessageBatchArgs>, z.input<typeof MessageBatchInputs>>>;
type _LivesIn = Assert<SameType<ClassOutputs<MessageBatch, typeof LivesIn>, z.output<typeof LivesIn>>>;
