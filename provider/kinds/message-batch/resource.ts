import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { Assert, SameType } from "../../../schemas/same-type";
import type { ClassOutputs, LivesIn, PlainArgs } from "../define-kind";
import type * as kinds from "../kind-types.generated";
import { KindResource } from "../kind-resource";
import type { ResourceArgs, ResourceOutputs } from "../resource-types";
import { refuseProtoKeys } from "../../resource-options";
import { messageBatch } from ".";
import { MESSAGES_FILE_READ, MESSAGES_JSON, type MessageBatchInputs, type MessageBatchState } from "./schema";

/**
 * Inputs of a {@link MessageBatch}, as its schema (`schema.ts`) defines them; `messagesFile` takes a file asset,
 * `new pulumi.asset.FileAsset("recipients.csv")`. A change sends the batch again.
 */
export type MessageBatchArgs = ResourceArgs<kinds.MessageBatchInputs, "messagesFile">;

// The engine sets each output on the instance; the class declares them through its kind's state type.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface MessageBatch extends ResourceOutputs<kinds.MessageBatchState> {}

/** A set of messages sent once (docs/message-batch.md). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class MessageBatch extends KindResource {
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
