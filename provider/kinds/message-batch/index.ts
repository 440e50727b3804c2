/** The MessageBatch kind: its schemas and runtime, as every consumer reads them. */
import { defineKind } from "../define-kind";
import { check, create, diff, migrate, remove, update } from "./runtime";
import { MessageBatchInputs, MessageBatchState } from "./schema";

export const messageBatch = defineKind({
  name: "MessageBatch",
  description:
    "Sends a set of messages once, when created; again only when replaced (a change to `stream`, the messages, inline " +
    "or in `messagesFile`, or `triggers`). A send that stops part-way is kept in state and finished by the next `pulumi up` " +
    "without sending anything twice; its messages cannot be changed until then. Deleting it sends nothing and recalls " +
    "nothing. State written by earlier releases is read as it is: an upgrade alone sends nothing.",
  inputs: MessageBatchInputs,
  state: MessageBatchState,
  methods: { check, create, diff, update, remove, migrate, unfinished: (state) => state.sentAt === null },
});
