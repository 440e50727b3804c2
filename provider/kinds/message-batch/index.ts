/** The MessageBatch kind: its schemas and runtime, as every consumer reads them. */
import type { z } from "zod";
import type { Assert, SameType } from "../../../schemas/same-type";
import { defineKind, type ClassOutputs, type PlainArgs } from "../define-kind";
import type { MessageBatch, MessageBatchArgs } from "./resource";
import * as runtime from "./runtime";
import { MessageBatchInputs, MessageBatchState } from "./schema";

export const messageBatch = defineKind({
  name: "MessageBatch",
  description:
    "Sends a set of messages once, when created; again only when replaced (a change to `stream`, `messages` or " +
    "`triggers`). A send that stops part-way is kept in state and finished by the next `pulumi up` without sending " +
    "anything twice. Deleting it sends nothing and recalls nothing. State written by earlier releases is read as it is: " +
    "an upgrade alone sends nothing.",
  inputs: MessageBatchInputs,
  state: MessageBatchState,
  runtime,
});

// The class's outputs and Args, checked against the schemas at compile time.
type _Outputs = Assert<SameType<ClassOutputs<MessageBatch, typeof MessageBatchState>, z.output<typeof MessageBatchState>>>;
type _Args = Assert<SameType<PlainArgs<MessageBatchArgs>, z.input<typeof MessageBatchInputs>>>;
