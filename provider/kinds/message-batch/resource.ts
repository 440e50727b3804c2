import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { Assert, SameType } from "../../../schemas/same-type";
import type { Message } from "../../../schemas/types";
import type { ClassOutputs, LivesIn, PlainArgs } from "../define-kind";
import { KindResource } from "../kind-resource";
import { refuseProtoKeys } from "../../resource-options";
import { messageBatch } from ".";
import { MESSAGES_FILE_READ, MESSAGES_JSON, type MessageBatchInputs, type MessageBatchState } from "./schema";

/**
 * Inputs of a {@link MessageBatch}. Changing any of them replaces the batch: it is sent
 * again. Each property is described once, in the kind's definition
 * (`provider/kinds/message-batch/schema.ts`): the text the package schema, and so every
 * generated SDK, carries.
 */
export interface MessageBatchArgs {
  stream: pulumi.Input<string>;
  /** The messages, written in the program; or else {@link MessageBatchArgs.messagesFile}. */
  messages?: pulumi.Input<pulumi.Input<Message>[]>;
  /** A file of messages, `new pulumi.asset.FileAsset("recipients.csv")`: NDJSON, a JSON array or CSV (docs/message-batch.md). */
  messagesFile?: pulumi.Input<pulumi.asset.Asset>;
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
    // What `check` reads of a file is kept among the inputs; registered as a secret so that the
    // engine keeps it encrypted in state (a provider that takes no secrets gets its inputs'
    // secrecy by name): it holds the messages' digest.
    // The messages go as one JSON text (see MESSAGES_JSON), secret when they are; checked here
    // first, as every input is (the text would hide a `__proto__` key from that check).
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

// The class's outputs and Args, checked against the kind's schemas at compile time.
type _Outputs = Assert<SameType<ClassOutputs<MessageBatch, typeof MessageBatchState>, z.output<typeof MessageBatchState>>>;
// `messagesFile` is an asset object in the program and its wire form in the schema: compared apart.
type _Args = Assert<SameType<PlainArgs<Omit<MessageBatchArgs, "messagesFile">>, Omit<z.input<typeof MessageBatchInputs>, "messagesFile">>>;
type _LivesIn = Assert<SameType<ClassOutputs<MessageBatch, typeof LivesIn>, z.output<typeof LivesIn>>>;
