import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { Assert, SameType } from "../../../schemas/same-type";
import type { Message } from "../../../schemas/types";
import type { ClassOutputs, LivesIn, PlainArgs } from "../define-kind";
import { KindResource } from "../kind-resource";
import { refuseProtoKeys } from "../../resource-options";
import { messageBatch } from ".";
import { MESSAGES_FILE_READ, MESSAGES_JSON, type MessageBatchInputs, type MessageBatchState } from "./schema";

/** Inputs of a {@link MessageBatch}; each is described in `schema.ts`, the text every SDK carries. A change sends the batch again. */
export interface MessageBatchArgs {
  stream: pulumi.Input<string>;
  /** The messages, written in the program; or else {@link MessageBatchArgs.messagesFile}. */
  messages?: pulumi.Input<pulumi.Input<Message>[]>;
  /** A file of messages, `new pulumi.asset.FileAsset("recipients.csv")`: NDJSON, a JSON array or CSV (docs/message-batch.md). */
  messagesFile?: pulumi.Input<pulumi.asset.Asset>;
  triggers?: pulumi.Input<unknown[]>;
}

/** A set of messages sent once (docs/message-batch.md). */
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
    // MESSAGES_FILE_READ is registered as a secret so the engine encrypts it in state: it holds the messages' digest.
    // `__proto__` keys are refused first: the JSON text (see MESSAGES_JSON) would hide them from that check.
    refuseProtoKeys(messageBatch.name, name, args);
    const messagesJson =
      args.messages === undefined ? undefined : pulumi.output(args.messages).apply((messages) => JSON.stringify(messages));
    super(
      messageBatch.name,
      name,
      { ...args, messages: undefined },
      { ...opts },
      "declare a new MessageBatch (it sends its messages when created)",
      { [MESSAGES_FILE_READ]: pulumi.secret(null), [MESSAGES_JSON]: messagesJson },
    );
  }
}

type _Outputs = Assert<SameType<ClassOutputs<MessageBatch, typeof MessageBatchState>, z.output<typeof MessageBatchState>>>;
// `messagesFile` is an asset object in the program and its wire form in the schema: compared apart.
type _Args = Assert<SameType<PlainArgs<Omit<MessageBatchArgs, "messagesFile">>, Omit<z.input<typeof MessageBatchInputs>, "messagesFile">>>;
type _LivesIn = Assert<SameType<ClassOutputs<MessageBatch, typeof LivesIn>, z.output<typeof LivesIn>>>;
