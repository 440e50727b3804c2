import { randomUUID } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { IDENTITY_KEY } from "../../../client/identity-key";
import { SEND_PLANNED } from "../../../client/send-messages";
import { isApiError, isPartialSendError, UnsupportedOperationError } from "../../../errors";
import type { ProviderContext } from "../../context";
import { canonical, digestMatches, messagesDigest } from "../../messages-digest";
import { containsUnknown, IDEMPOTENCY_SCOPE, ResourceInitFailedError, UNKNOWN, type Props } from "../../protocol";
import { checkKnownInputs } from "../../check-inputs";
import { sameValue } from "../../same-value";
import { unknownShape, type KindInputs } from "../define-kind";
import type { Message } from "../../../schemas/types";
import { FileError } from "../../../message-file";
import { CALL_MAX_BYTES, oversizedMessages } from "./calls";
import {
  checkedCalls,
  ContentCut,
  MB3,
  mb3BatchId,
  mb3Scheme,
  planCalls,
  positionScheme,
  type CallPlan,
  type CallScheme,
} from "./call-plan";
import { describeSize, plural, progressLine, sizeOfMessages, type BatchSize } from "./blast-radius";
import { guardSend, refusalOf } from "./send-guard";
import { canonicalJson } from "../../../schemas/canonical-json";
import { assetFilePath, assetHash } from "./file-asset";
import { messagesOfFile, MessagesFileChanged, readMessagesFile } from "./messages-file";
import {
  MESSAGES_FILE_READ,
  MESSAGES_JSON,
  MessageBatchInputs,
  MessagesFileRead,
  type MessageBatchState,
  RecordedMessageBatch,
} from "./schema";

type Inputs = KindInputs<typeof MessageBatchInputs> & { readonly [MESSAGES_FILE_READ]?: unknown; readonly [MESSAGES_JSON]?: unknown };

/** Any recorded shape as the current one; anything else is an error, never read as "changed" (which would send the batch again). */
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
    pendingCallKey: state.pendingCallKey ?? null,
  };
}

/** The inputs with {@link MESSAGES_JSON} read as `messages`. @throws SyntaxError for a text that is not JSON (`check` refuses it) */
function withMessages<P extends Props>(props: P): P {
  const text = props[MESSAGES_JSON];
  if (typeof text !== "string") return props;
  const { [MESSAGES_JSON]: _text, ...rest } = props;
  return { ...rest, messages: text === UNKNOWN ? UNKNOWN : JSON.parse(text) } as unknown as P;
}

/**
 * Each message must fit in a call of its own: one that cannot would stop the send for good. A file is judged unless it is the one
 * recorded (same hash and stream); what was read is kept among the inputs for `diff`, which sees the file's hash only.
 */
export async function check(context: ProviderContext, olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  const result = await checkInputs(olds, news);
  // A batch not in the state yet. A replacement is said by `diff`, which knows why; the engine then checks the inputs again,
  // with no olds, and that check must not say it a second time.
  if (Object.keys(olds).length > 0 || result.failures?.length) return result;
  const refusal = announced(context) ? refusedReplacement(context) : announce(context, withMessages(result.inputs as Props) as Inputs);
  // A failure of no one property: the engine would print the property's whole value (every message) beside it.
  return refusal === undefined ? result : { ...result, failures: [{ property: "", reason: refusal }] };
}

async function checkInputs(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  const { [MESSAGES_FILE_READ]: _stale, ...rest } = news;
  // Unchanged news let the plugin answer with the request's own bytes.
  const inputs = MESSAGES_FILE_READ in news ? rest : news;
  const sameStream = inputs.stream === olds.stream;
  // The class's text unchanged: not even parsed.
  if (typeof inputs[MESSAGES_JSON] === "string" && inputs[MESSAGES_JSON] === olds[MESSAGES_JSON] && sameStream) {
    const checked = checkKnownInputs(MessageBatchInputs, { ...inputs, [MESSAGES_JSON]: undefined });
    return checked.ok ? { inputs } : { inputs, failures: checked.failures };
  }
  let given: Props;
  try {
    given = withMessages(inputs);
  } catch (error) {
    return { inputs, failures: [{ property: "messages", reason: `not valid JSON: ${(error as Error).message}` }] };
  }
  // Messages equal to the recorded ones passed this check when recorded: compared, not judged again.
  const judged = Array.isArray(given.messages) && sameStream && sameValue(withMessages(olds).messages, given.messages);
  const checked = checkKnownInputs(MessageBatchInputs, judged ? { ...given, messages: undefined } : given);
  if (!checked.ok) return { inputs, failures: checked.failures };
  const set = ["messages", "messagesFile"].filter((key) => given[key] != null);
  if (set.length !== 1) {
    const reason = set.length === 0 ? "expected `messages` or `messagesFile`" : "expected `messages` or `messagesFile`, not both";
    return { inputs, failures: [{ property: "messages", reason }] };
  }
  const { stream, messages, messagesFile } = checked.data as Partial<MessageBatchInputs>;
  if (typeof stream !== "string") return { inputs };
  if (messagesFile !== undefined) {
    const recorded = MessagesFileRead.safeParse(olds[MESSAGES_FILE_READ]);
    if (recorded.success && recorded.data.hash === assetHash(messagesFile) && recorded.data.stream === stream) {
      return { inputs: { ...inputs, [MESSAGES_FILE_READ]: recorded.data } };
    }
    const result = await readMessagesFile(messagesFile, stream);
    return "failures" in result ? { inputs, failures: result.failures } : { inputs: { ...inputs, [MESSAGES_FILE_READ]: result.read } };
  }
  if (!Array.isArray(messages) || judged) return { inputs };
  const failures = oversizedMessages(stream, messages).map(({ index, reason }) => ({ property: `messages.${index}`, reason }));
  return failures.length > 0 ? { inputs, failures } : { inputs };
}

/**
 * A change to the messages, `stream` or `triggers` replaces the batch, which sends again. Messages are compared by content with
 * any recorded shape, so an upgrade alone never re-sends, and the same messages inline or in a file are the same batch. A part-sent
 * batch with unchanged inputs reports a change without replacing, so `update` sends the rest even after `pulumi refresh` cleared
 * the init error. Prints nothing: `diff` also runs at preview and refresh.
 */
export function diff(context: ProviderContext, id: string, olds: MessageBatchState, given: Inputs): pulumi.dynamic.DiffResult {
  const news = withMessages(given);
  const messagesKey = news.messagesFile != null ? "messagesFile" : "messages";
  const changed = (key: "stream" | "triggers" | "messages"): boolean => {
    if (key === "messages") return messagesChanged(olds, news);
    if (containsUnknown(news[key])) return true;
    return canonical(olds[key] ?? null) !== canonical(news[key] ?? null);
  };
  const replaces = (["stream", "messages", "triggers"] as const).filter(changed).map((key) => (key === "messages" ? messagesKey : key));
  if (olds.sentAt === null) {
    if (replaces.length === 0) {
      announcePartSent(context, olds, news);
      return { changes: true, replaces: [], deleteBeforeReplace: false };
    }
    if (!replaces.includes("triggers")) throw editedWhilePartSent(id, olds, replaces);
  }
  if (replaces.length > 0) {
    // Refused by the check the engine makes of a replacement's inputs right after (a clean error on both routes), and by the send.
    const refusal = announce(context, news, `${replaces.map((key) => `\`${key}\``).join(" and ")} changed (a replacement)`);
    if (refusal !== undefined && context.urn !== undefined) context.deployment.set(`${REFUSED}${context.urn}`, refusal);
  }
  return { changes: replaces.length > 0, replaces, deleteBeforeReplace: false };
}

/** The resource's name (its URN's last part), for lines that may reach stderr rather than the resource's row. */
function nameOf(context: ProviderContext, fallback = "this batch"): string {
  return context.urn === undefined ? fallback : context.urn.slice(context.urn.lastIndexOf("::") + 2);
}

/** What the inputs will send, when it can be told before the send (not while the messages are unknown). */
function sizeOf(inputs: Inputs): BatchSize | undefined {
  if (inputs.messagesFile != null) {
    const read = MessagesFileRead.safeParse(inputs[MESSAGES_FILE_READ]);
    if (!read.success) return undefined;
    const { count, calls, recipients, recipientsExact } = read.data;
    // A read an earlier release recorded has the count alone.
    return { messages: count, calls, recipients, recipientsExact: recipientsExact ?? true };
  }
  if (!Array.isArray(inputs.messages) || containsUnknown(inputs.messages) || typeof inputs.stream !== "string") return undefined;
  return sizeOfMessages(inputs.stream, inputs.messages);
}

const KEY_UNCHECKED = "messageBatch.keyUnchecked";
const ANNOUNCED = "messageBatch.announced";
const REFUSED = "messageBatch.refused:";

/** The limit's refusal of this resource's replacement, which `diff` said. */
const refusedReplacement = (context: ProviderContext): string | undefined =>
  context.urn === undefined ? undefined : (context.deployment.get(`${REFUSED}${context.urn}`) as string | undefined);

/** Whether this deployment has said what this resource will send. */
function announced(context: ProviderContext): boolean {
  return context.urn !== undefined && ((context.deployment.get(ANNOUNCED) as Set<string> | undefined)?.has(context.urn) ?? false);
}

/**
 * Says, before any call, what the batch will send (`why` it sends again, for a replacement), and records it against the
 * update's limit: the limit's refusal, or undefined.
 */
function announce(context: ProviderContext, inputs: Inputs, why?: string): string | undefined {
  const name = nameOf(context);
  const stream = typeof inputs.stream === "string" ? inputs.stream : "its stream";
  const size = sizeOf(inputs);
  const again = why === undefined ? "" : ` again: ${why}`;
  if (size === undefined) {
    context.warn(`note: ${name}: will send messages${again}; how many is not known until \`pulumi up\` (they depend on other resources)`);
    return undefined;
  }
  if (context.urn !== undefined) {
    let said = context.deployment.get(ANNOUNCED) as Set<string> | undefined;
    if (!said) context.deployment.set(ANNOUNCED, (said = new Set()));
    said.add(context.urn);
  }
  let said = `note: ${name}: will send ${describeSize(size, stream)}${again}`;
  if (!context.deployment.has(KEY_UNCHECKED)) {
    context.deployment.set(KEY_UNCHECKED, true);
    said += ". The API key is not checked before the first call: the service has no call that changes nothing";
  }
  context.warn(said);
  return refusalOf(context, context.urn ?? name, name, size.messages);
}

/** A part-sent batch: how much is left. Said by `diff`, which also runs at refresh: the limit is applied by the send itself. */
function announcePartSent(context: ProviderContext, olds: MessageBatchState, news: Inputs): void {
  const name = nameOf(context);
  const left = remainingOf(olds, news);
  const rest =
    left === undefined
      ? ""
      : left.messages === undefined
        ? ` in ${plural(left.calls, "call")}`
        : `, ${plural(left.messages, "message")} in ${plural(left.calls, "call")}`;
  context.warn(
    `note: ${name}: part-sent: ${plural(olds.batchIds.length, "call")} of its ${plural(olds.messageCount, "message")} confirmed; ` +
      `\`pulumi up\` sends the rest${rest}`,
  );
  const refusal = left?.messages === undefined ? undefined : refusalOf(context, context.urn ?? name, name, left.messages);
  if (refusal !== undefined) context.warn(`warning: ${name}: ${refusal}`);
}

/** What a part-sent mb3 batch has left to send: its calls, and its messages when they are inline (a file is not read here). */
function remainingOf(olds: MessageBatchState, news: Inputs): { calls: number; messages?: number } | undefined {
  if (!olds.idempotencyKeyPrefix.startsWith(MB3)) return undefined;
  const confirmed = olds.batchIds.length;
  if (Array.isArray(news.messages) && !containsUnknown(news.messages) && typeof news.stream === "string") {
    const cut = new ContentCut(news.stream);
    let calls = 0;
    let confirmedMessages = 0;
    for (const message of news.messages) {
      if (cut.startsCall(message, canonicalJson(message))) calls++;
      if (calls <= confirmed) confirmedMessages++;
    }
    return { calls: calls - confirmed, messages: news.messages.length - confirmedMessages };
  }
  const calls = sizeOf(news)?.calls;
  return calls === undefined ? undefined : { calls: calls - confirmed };
}

function messagesChanged(olds: MessageBatchState, news: Inputs): boolean {
  if (news.messagesFile != null) {
    const read = MessagesFileRead.safeParse(news[MESSAGES_FILE_READ]);
    // Unread (an asset not known until `up`): taken as changed, as any unknown input is.
    return !read.success || read.data.digest !== olds.messagesDigest;
  }
  if (containsUnknown(news.messages)) return true;
  return !digestMatches(olds.messagesDigest, news.messages);
}

// Replacing a part-sent batch would send the confirmed messages again; finishing it would send what was never checked against them.
function editedWhilePartSent(id: string, olds: MessageBatchState, replaces: string[]): UnsupportedOperationError {
  const confirmed = olds.batchIds.length;
  return new UnsupportedOperationError(
    `message batch ${id} was only part-sent (${confirmed} call(s) of its ${olds.messageCount} messages confirmed) and its ` +
      `${replaces.join(" and ")} changed since. Replacing it would send the confirmed messages again, so nothing was sent. ` +
      "Either restore the messages (the file, or the inline list) as they were and run `pulumi up` to send the rest, " +
      "or change `triggers` to send the new messages as a new batch (the confirmed messages go out again).",
  );
}

/** Where a send starts: the calls confirmed before, never sent again (the service may have forgotten them), and the one that was out. */
interface Resume {
  readonly confirmed: ReadonlyArray<string | null>;
  readonly pendingCallKey: string | null;
}

const FRESH: Resume = { confirmed: [], pendingCallKey: null };

/** The scheme of batch `id` (`call-plan.ts`): mb3 for the batches this release creates, by position for earlier ones. */
function schemeOf(context: ProviderContext, id: string, inputs: Inputs): CallScheme {
  if (!id.startsWith(MB3)) return positionScheme(id, inputs.stream);
  // Without a scope (a runtime called on its own) the id stands in: unique, but not found again by a redone create.
  const scope = typeof inputs[IDEMPOTENCY_SCOPE] === "string" && inputs[IDEMPOTENCY_SCOPE] !== "" ? inputs[IDEMPOTENCY_SCOPE] : id;
  return mb3Scheme(context.client()[IDENTITY_KEY], scope, inputs.stream, inputs.triggers);
}

/**
 * Sends every message once, one call at a time, as planned: pass one plans the calls from the messages (for a file, read again
 * and held to what `check` read), pass two sends each call once it is checked against the plan. Only the call that was out when
 * an earlier send stopped relies on the service's memory of its key.
 */
async function send(context: ProviderContext, inputs: Inputs, id: string, resume: Resume = FRESH): Promise<MessageBatchState> {
  const { stream } = inputs;
  const content = contentOf(inputs);
  const file = inputs.messagesFile != null ? assetFilePath(inputs.messagesFile) : undefined;
  const source = () => content.messages ?? messagesOfFile(inputs.messagesFile!);
  const scheme = schemeOf(context, id, inputs);
  const plan = await planCalls(scheme, source());
  if (plan.digest !== content.digest || plan.count !== content.count) {
    throw new MessagesFileChanged(
      `${file}: its messages are not those that were checked (it changed since): nothing was sent; run \`pulumi up\` again`,
    );
  }
  const keys = scheme.keys(plan);
  const { confirmed } = resume;
  if (resume.pendingCallKey !== null && confirmed.length < keys.length) keys[confirmed.length] = resume.pendingCallKey;
  const name = nameOf(context, id);
  const confirmedMessages = plan.calls.slice(0, confirmed.length).reduce((count, call) => count + call.count, 0);
  guardSend(context, context.urn ?? name, name, plan.count - confirmedMessages);
  const base = {
    stream,
    triggers: inputs.triggers ?? null,
    messageCount: plan.count,
    messagesDigest: plan.digest,
    idempotencyKeyPrefix: id,
  };
  const wire = scheme.canonicalWire ? (_message: unknown, text: string) => text : (message: unknown) => message;
  const attempted = new Set<number>();
  let replayed = 0;
  // The resource's status while it sends: a few times a second at most, and after the last call.
  let shown = 0;
  const onProgress = ({ sentMessages, sentBatches }: { sentMessages: number; sentBatches: number }) => {
    const calls = confirmed.length + sentBatches;
    if (calls < plan.calls.length && Date.now() - shown < PROGRESS_EVERY_MS) return;
    shown = Date.now();
    context.status(progressLine(confirmedMessages + sentMessages, plan.count, calls, plan.calls.length));
  };
  try {
    const result = await context.client()[SEND_PLANNED](
      source() as AsyncIterable<Message>,
      { stream, idempotencyKeyPrefix: id, skipChunks: new Set(confirmed.keys()), onProgress },
      {
        prevalidated: true,
        encoded: scheme.canonicalWire,
        cut: (messages) => checkedCalls(plan, messages, wire, (index) => changedWhileSent(file, index, plan)),
        keyOf: (index) => keys[index],
        beforeSend: (chunk) => void attempted.add(chunk.index),
        onReplayed: () => void replayed++,
      },
    );
    const calls = plan.calls.length - confirmed.length;
    if (replayed > 0) context.warn(replayedCalls(id, replayed, calls, confirmed.length === 0 && scheme.canonicalWire));
    context.warn(sentSummary(name, plan.count - confirmedMessages, calls, replayed, confirmed.length));
    return {
      ...base,
      batchIds: [...confirmed, ...result.batches.map((batch) => batch.id ?? null)],
      sentAt: new Date().toISOString(),
      pendingCallKey: null,
    };
  } catch (error) {
    if (!isPartialSendError(error)) throw isFileProblem(error) ? error : context.explain(error);
    const accepted =
      plan.calls.slice(0, confirmed.length).reduce((count, call) => count + call.count, 0) +
      error.sent.reduce((count, batch) => count + batch.count, 0);
    const changed = isFileProblem(error.cause);
    const explained = changed ? error.cause : context.explain(error.cause);
    const cause = explained instanceof Error ? explained.message : String(explained);
    const next = changed
      ? FILE_CHANGED_NEXT
      : `${whatNext(explained)} Every call keeps its idempotency key, so the service does not send a call twice.`;
    throw new ResourceInitFailedError(
      id,
      [
        `message batch ${id}: ${accepted} of ${plan.count} messages were confirmed before sending stopped (${cause}). The batch ` +
          `is kept in state as part-sent. ${next}`,
      ],
      {
        ...base,
        batchIds: [...confirmed, ...error.sent.map((batch) => batch.id ?? null)],
        sentAt: null,
        pendingCallKey: attempted.has(error.failedIndex) ? keys[error.failedIndex] : null,
      },
      inputs,
    );
  }
}

const PROGRESS_EVERY_MS = 250;

/** Said once a batch is sent: `reminders: sent 30,000 messages in 30 calls; 2 of them answered from the service's record`. */
function sentSummary(name: string, messages: number, calls: number, replayed: number, confirmedBefore: number): string {
  const answered = replayed > 0 ? `; ${plural(replayed, "call")} of them answered from the service's record (not sent again)` : "";
  const before = confirmedBefore > 0 ? ` (the ${plural(confirmedBefore, "call")} confirmed before were not sent again)` : "";
  return `note: ${name}: sent ${plural(messages, "message")} in ${plural(calls, "call")}${answered}${before}`;
}

// A file that is not what `check` read stops the send before any call that would carry an unchecked message.
const isFileProblem = (error: unknown): boolean => error instanceof MessagesFileChanged || error instanceof FileError;

function changedWhileSent(file: string | undefined, index: number, plan: CallPlan): MessagesFileChanged {
  const first = plan.calls.slice(0, index).reduce((count, call) => count + call.count, 0) + 1;
  return new MessagesFileChanged(
    `${file ?? "the messages"} changed while it was being sent: call ${index + 1} of ${plan.calls.length} (messages ${first} ` +
      `on) no longer holds the messages that were checked, so neither it nor any call after it was sent`,
  );
}

const FILE_CHANGED_NEXT =
  "Put the file back as it was checked and run `pulumi up`: it sends the rest, and nothing confirmed goes again. To send the " +
  "file as it is now instead, change `triggers`: the batch is replaced and every message goes out, the confirmed ones again.";

function contentOf(inputs: Inputs): { count: number; digest: string; messages?: Message[]; read?: MessagesFileRead } {
  if (inputs.messagesFile != null) {
    const read = MessagesFileRead.safeParse(inputs[MESSAGES_FILE_READ]);
    if (!read.success) throw new UnsupportedOperationError("The batch's messages file was not checked: run `pulumi up` again.");
    return { count: read.data.count, digest: read.data.digest, read: read.data };
  }
  const messages = inputs.messages ?? [];
  return { count: messages.length, digest: messagesDigest(messages), messages };
}

// Said after the send: preview cannot know what the service remembers.
function replayedCalls(id: string, replayed: number, calls: number, created: boolean): string {
  const others =
    created && replayed < calls
      ? ` The other ${calls - replayed} call(s) were new to the service and were sent. If that earlier run had sent them with ` +
        "other messages (the messages were edited since), a call holding an edited message went out whole: its unedited " +
        "messages reached their recipients again."
      : "";
  return (
    `note: message batch ${id}: ${replayed} of ${calls} calls were answered from the service's record of an earlier run under ` +
    "this stack's identity (an interrupted `up` of this stack, or one whose answers were lost; or another stack given the " +
    `same messaging:stackIdentity, which each stack must have its own of), under the same idempotency keys: their messages ` +
    `were not sent again.${others}`
  );
}

// The next `up` sends the same calls again, so a call refused for what it holds would be refused again: say only what it can do.
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
 * A new batch's id is the same for every create of the same place, stream, messages and triggers under the same API key, and its
 * calls' keys are the same for the same messages: a create whose outcome was never recorded (a killed run) is redone, and the
 * service answers every call it took from its record. Keyed with the identity key: the id is in plain state.
 */
export async function create(context: ProviderContext, given: Inputs): Promise<pulumi.dynamic.CreateResult<MessageBatchState>> {
  const inputs = withMessages(given);
  const scope = inputs[IDEMPOTENCY_SCOPE];
  const key = context.client()[IDENTITY_KEY];
  const id =
    typeof scope === "string" && scope !== ""
      ? mb3BatchId(key, scope, inputs.stream, contentOf(inputs).digest, inputs.triggers)
      : `${MB3}${randomUUID().replaceAll("-", "")}`;
  return { id, outs: await send(context, inputs, id) };
}

/** Finishes a part-sent batch: confirmed calls are skipped, the one that was out goes under its recorded key. */
export async function update(
  context: ProviderContext,
  id: string,
  olds: MessageBatchState,
  news: Inputs,
): Promise<pulumi.dynamic.UpdateResult> {
  if (olds.sentAt === null) {
    context.warn(
      `message batch ${id} was only part-sent: sending the rest. Calls the service confirmed are not sent again; the one that was ` +
        "out goes again under its idempotency key, so the service sends no message twice.",
    );
    const resume = { confirmed: olds.batchIds, pendingCallKey: olds.pendingCallKey };
    return { outs: await send(context, withMessages(news), olds.idempotencyKeyPrefix, resume) };
  }
  throw new UnsupportedOperationError(`Message batch ${id} cannot be updated: sent messages cannot be changed; changes replace the batch.`);
}

export function remove(context: ProviderContext, id: string): void {
  context.warn(`note: message batch ${id} was removed from the stack; its messages were already sent and cannot be recalled.`);
}
