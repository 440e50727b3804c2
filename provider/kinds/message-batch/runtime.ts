import { randomUUID } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { IDENTITY_KEY, type IdentityKey } from "../../../client/identity-key";
import { SEND_PLANNED } from "../../../client/send-messages";
import { isApiError, isPartialSendError, UnsupportedOperationError } from "../../../errors";
import type { ProviderContext } from "../../context";
import { canonical, digestMatches, messagesDigest } from "../../messages-digest";
import { containsUnknown, IDEMPOTENCY_SCOPE, ResourceInitFailedError, type Props } from "../../protocol";
import { checkKnownInputs } from "../../check-inputs";
import { unknownShape, type KindInputs } from "../define-kind";
import { CALL_MAX_BYTES, callSizes, oversizedMessages } from "./calls";
import { MESSAGE_BATCH_REPLACE_KEYS, MessageBatchInputs, type MessageBatchState, RecordedMessageBatch } from "./schema";

type Inputs = KindInputs<typeof MessageBatchInputs>;

/**
 * The recorded state, in any shape this package has written, as the current one (see
 * `RecordedMessageBatch`): the first release's messages become their digest (v1), a legacy
 * digest is kept as it is (`digestMatches` reads both), unreadable chunk ids are none
 * confirmed. Anything else is an error that says so, never read as "changed" (which would
 * replace the batch and send it again).
 */
export function migrate(recorded: Props, id: string): MessageBatchState {
  const parsed = RecordedMessageBatch.safeParse(recorded);
  if (!parsed.success) throw unknownShape("message batch", id, recorded);
  const state = parsed.data;
  const messagesDigestOf = "messagesDigest" in state ? state.messagesDigest : messagesDigest(state.messages);
  return {
    stream: state.stream,
    triggers: state.triggers ?? null,
    messageCount: state.messageCount ?? ("messages" in state ? state.messages.length : 0),
    messagesDigest: messagesDigestOf,
    idempotencyKeyPrefix: state.idempotencyKeyPrefix,
    batchIds: state.batchIds ?? [],
    sentAt: state.sentAt,
  };
}

/**
 * The inputs validated against the schema, and each message checked to fit in a call of its
 * own (at most {@link CALL_MAX_BYTES} of JSON with its envelope): one that cannot would stop
 * the send for good.
 */
export function check(_context: ProviderContext, _olds: Props, news: Props): pulumi.dynamic.CheckResult {
  const checked = checkKnownInputs(MessageBatchInputs, news);
  if (!checked.ok) return { inputs: news, failures: checked.failures };
  const { stream, messages } = checked.data as Partial<MessageBatchInputs>;
  if (typeof stream !== "string" || !Array.isArray(messages)) return { inputs: news };
  const failures = oversizedMessages(stream, messages).map(({ index, bytes }) => ({
    property: `messages.${index}`,
    reason:
      `the message takes ${bytes} bytes as JSON; one call carries at most ${CALL_MAX_BYTES} bytes (10 MiB) in all, so it ` +
      "cannot be sent even alone: shorten it or split it",
  }));
  return failures.length > 0 ? { inputs: news, failures } : { inputs: news };
}

/**
 * Messages cannot be changed once sent: a change to the messages, `stream` or `triggers`
 * replaces the batch, which sends again. Messages are compared with what state recorded in
 * whichever shape it was written (a digest, current or legacy; or, from the first release,
 * the messages themselves), so an upgrade alone never re-sends. A part-sent batch with
 * unchanged inputs reports a change without replacing, so the engine calls `update`, which
 * sends the rest: this does not depend on the engine's recorded init error, which
 * `pulumi refresh` clears. Prints nothing: `diff` also runs at preview and refresh.
 */
export function diff(_context: ProviderContext, _id: string, olds: MessageBatchState, news: Inputs): pulumi.dynamic.DiffResult {
  const changed = (key: keyof MessageBatchInputs): boolean => {
    if (containsUnknown(news[key])) return true;
    if (key === "messages") return !digestMatches(olds.messagesDigest, news.messages);
    return canonical(olds[key] ?? null) !== canonical(news[key] ?? null);
  };
  const replaces = MESSAGE_BATCH_REPLACE_KEYS.filter(changed);
  if (replaces.length === 0 && olds.sentAt === null) return { changes: true, replaces: [], deleteBeforeReplace: false };
  return { changes: replaces.length > 0, replaces, deleteBeforeReplace: false };
}

/**
 * Sends every message once, chunked by 1,000, one chunk at a time, all chunks under one
 * idempotency key prefix. `confirmed` are the ids of the first chunks, which an earlier
 * attempt had confirmed: they are not sent again, not even under their keys (the service may
 * have forgotten them by now); only the chunk that was in flight relies on the service's
 * memory of its key.
 */
async function send(
  context: ProviderContext,
  inputs: Inputs,
  idempotencyKeyPrefix: string,
  confirmed: ReadonlyArray<string | null> = [],
): Promise<MessageBatchState> {
  const { messages, stream } = inputs;
  const base = {
    stream,
    triggers: inputs.triggers ?? null,
    messageCount: messages.length,
    messagesDigest: messagesDigest(messages),
    idempotencyKeyPrefix,
  };
  const chunkSizes = callSizes(stream, messages);
  let replayed = 0;
  try {
    const skipChunks = new Set(confirmed.keys());
    // `check` validated these very messages (the engine passes its inputs on, unchanged): not parsed again.
    const result = await context
      .client()
      [SEND_PLANNED](
        messages,
        { stream, idempotencyKeyPrefix, skipChunks },
        { prevalidated: true, chunkSizes, onReplayed: () => void replayed++ },
      );
    if (replayed > 0) context.warn(replayedCalls(idempotencyKeyPrefix, replayed, chunkSizes.length - confirmed.length));
    return { ...base, batchIds: [...confirmed, ...result.batches.map((batch) => batch.id ?? null)], sentAt: new Date().toISOString() };
  } catch (error) {
    if (!isPartialSendError(error)) throw context.explain(error);
    // Even with no chunk confirmed, the first may have been processed: record the batch under
    // its key prefix, so the next `pulumi up` resends with the same keys.
    const accepted =
      chunkSizes.slice(0, confirmed.length).reduce((count, size) => count + size, 0) +
      error.sent.reduce((count, batch) => count + batch.count, 0);
    const explained = context.explain(error.cause);
    const cause = explained instanceof Error ? explained.message : String(explained);
    throw new ResourceInitFailedError(
      idempotencyKeyPrefix,
      [
        `message batch ${idempotencyKeyPrefix}: ${accepted} of ${messages.length} messages were confirmed before sending stopped ` +
          `(${cause}). The batch is kept in state as part-sent. ${whatNext(explained)} Every call keeps its idempotency key, ` +
          "so the service does not send a call twice.",
      ],
      { ...base, batchIds: [...confirmed, ...error.sent.map((batch) => batch.id ?? null)], sentAt: null },
      inputs,
    );
  }
}

/**
 * Said when the service answered calls from its record of earlier calls under the same keys:
 * they were not sent again. The keys start from the stack's identity, so only an earlier run of
 * this stack (one that was interrupted, or whose answers were lost) can have made them.
 */
const replayedCalls = (id: string, replayed: number, calls: number): string =>
  `note: message batch ${id}: ${replayed} of ${calls} calls were answered from the service's record of an earlier run of this ` +
  "stack (an interrupted one, or one whose answers were lost), under the same idempotency keys: their messages were not sent again.";

/**
 * What the next `pulumi up` can do about a stopped send, and nothing it cannot: it sends the
 * same calls again, so a call the service refused for what it holds (a 4xx other than a
 * setting, a timeout or a rate limit) would be refused again.
 */
function whatNext(cause: unknown): string {
  const status = isApiError(cause) ? cause.status : undefined;
  if (status === 401 || status === 404) return "Once that setting is fixed, `pulumi up` sends the rest.";
  if (status === undefined || status >= 500 || status === 408 || status === 429) return "Run `pulumi up` again to send the rest.";
  const tooLarge =
    status === 413
      ? ` Calls are cut at ${CALL_MAX_BYTES} bytes of JSON (10 MiB), and the service refused one as too large: its limit is lower.`
      : "";
  return (
    `The service refused the call (HTTP ${status}), and \`pulumi up\` would send the same call again, to be refused again.${tooLarge} ` +
    "Changing the messages replaces the batch, which sends the confirmed messages again too."
  );
}

/**
 * A new batch's key prefix (and resource id), version `mb2`: the same for every create of the
 * same resource (its place in the stack, parents included: the `idempotencyScope` input) with
 * the same stream, messages and triggers, under the same API key. A create whose outcome was
 * never recorded (the run killed mid-send, the engine's pending create cleared) is redone
 * under the same keys, so the service answers the calls it took from its record instead of
 * sending them again. Removing a batch and declaring it again unchanged is the same batch:
 * change `triggers` to send again. Keyed ({@link IdentityKey}): the id sits in plain state,
 * and an unkeyed hash of the messages would give them away to whoever guesses them. A
 * recorded batch keeps the prefix it was sent under (`mb1`, `mb2` or random), whatever its
 * API key is now. Undefined without a scope (a program whose class registered none): a
 * random prefix then. Pinned by a golden test; it must never change for the same inputs.
 */
export function batchKeyPrefix(
  key: IdentityKey,
  scope: unknown,
  inputs: Pick<MessageBatchInputs, "stream" | "messages" | "triggers">,
): string | undefined {
  if (typeof scope !== "string" || scope === "") return undefined;
  const identity = canonical([scope, inputs.stream, messagesDigest(inputs.messages), inputs.triggers ?? null]);
  return `mb2-${key.digest("pulumi-messaging batch mb2", identity)}`;
}

export async function create(
  context: ProviderContext,
  inputs: Inputs,
  idempotencyKeyPrefix?: string,
): Promise<pulumi.dynamic.CreateResult<MessageBatchState>> {
  const prefix = idempotencyKeyPrefix ?? batchKeyPrefix(context.client()[IDENTITY_KEY], inputs[IDEMPOTENCY_SCOPE], inputs) ?? randomUUID();
  return { id: prefix, outs: await send(context, inputs, prefix) };
}

/**
 * Only reached for a part-sent batch (see `diff`), in any recorded shape: resends under the
 * recorded key prefix, so accepted chunks are replayed by the service, not sent twice, and
 * records the current shape. (The host takes the provider from the new inputs here, so even
 * a part-sent state written without `__provider` is finished.) Any other update is
 * impossible: changes replace.
 */
export async function update(
  context: ProviderContext,
  id: string,
  olds: MessageBatchState,
  news: Inputs,
): Promise<pulumi.dynamic.UpdateResult> {
  if (olds.sentAt === null) {
    context.warn(
      `message batch ${id} was only part-sent: sending the rest. Chunks the service confirmed are not sent again; the one in flight ` +
        "goes again under its idempotency key, so the service sends no message twice.",
    );
    return { outs: await send(context, news, olds.idempotencyKeyPrefix, olds.batchIds) };
  }
  throw new UnsupportedOperationError(`Message batch ${id} cannot be updated: sent messages cannot be changed; changes replace the batch.`);
}

/** Sent messages cannot be recalled; removing the resource only forgets it. */
export function remove(context: ProviderContext, id: string): void {
  context.warn(`note: message batch ${id} was removed from the stack; its messages were already sent and cannot be recalled.`);
}
