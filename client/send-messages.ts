import { z } from "zod";
import { PartialSendError, ValidationError, type SentBatch } from "../errors/messaging-error";
import { toFieldErrors } from "../schemas/field-errors";
import { IdempotencyKeyPrefix } from "../schemas/idempotency-key";
import { MAX_MESSAGES_PER_BATCH, Stream } from "../schemas/message-batch";
import type { Message, MessageBatchRequest, MessageBatchResult } from "../schemas/types";
import { chunks, isIterable, sizedChunks, type Chunk } from "./chunks";
import type { RetryNotice } from "./http";
import { chunkIdempotencyKey, newIdempotencyKey } from "./idempotency";
import { parseMessages } from "./validate";

/** Chunks sent at once when `concurrency` is not set: one, so chunks are accepted in order. */
export const DEFAULT_SEND_CONCURRENCY = 1;
/** The highest `concurrency` accepted. */
export const MAX_SEND_CONCURRENCY = 16;

/** How far a chunked send has got; passed to `onProgress` after each accepted chunk. */
export interface SendProgress {
  /** Messages in the chunks accepted so far (skipped chunks not included). */
  sentMessages: number;
  /** Messages in the whole input, when known (the input is an array). */
  totalMessages?: number;
  /** Chunks accepted so far. */
  sentBatches: number;
  /** The chunk just accepted. */
  batch: SentBatch;
}

/** A chunk's request is about to be retried; passed to `onRetry`. */
export interface SendRetry extends RetryNotice {
  /** The chunk being retried. */
  chunkIndex: number;
}

/** Options of {@link MessagingClient.sendMessages}. */
export interface SendMessagesOptions {
  /** Stream of every batch, e.g. `"transactional"`. Required. */
  stream: string;
  /** Messages per batch (per API call), 1–1000. Default 1000. */
  batchSize?: number;
  /**
   * Chunk `i` is sent with the key `${prefix}-${i}`: a re-run with the same prefix, messages and
   * `batchSize` is accepted nothing twice. Default: a random UUID (returned in the result).
   */
  idempotencyKeyPrefix?: string;
  /** Chunks in flight at once, 1–16. Default 1. Results stay in input order either way. */
  concurrency?: number;
  /** Chunks already accepted under the same prefix: read but not sent again, nor listed in the result. */
  skipChunks?: ReadonlySet<number>;
  /** Called after each accepted chunk. If it throws, the send stops with a `PartialSendError`. */
  onProgress?: (progress: SendProgress) => void;
  /** Called before a chunk's request is retried (after a transient failure), with the wait. */
  onRetry?: (retry: SendRetry) => void;
  /** Stops the send at once: no further chunk is started and requests in flight are cancelled. */
  signal?: AbortSignal;
  /**
   * Stops the send gently: no further chunk is started, chunks in flight finish, then the send
   * rejects with a `PartialSendError`. Use it for Ctrl-C; combine with `signal` to bound the wait.
   */
  stopSignal?: AbortSignal;
}

/** What a completed chunked send did. */
export interface SendMessagesResult {
  /** The accepted chunks, in input order (chunks in `skipChunks` not included). */
  batches: SentBatch[];
  /** Messages sent in all (chunks in `skipChunks` not included). */
  messageCount: number;
  /** Messages in the chunks skipped because of `skipChunks`. */
  skippedMessages: number;
  /** The prefix of the chunks' idempotency keys (the one passed, or the one generated). */
  idempotencyKeyPrefix: string;
}

/** `onAnswer` is told whether the service answered from its idempotency record. */
export type SendBatch = (
  request: MessageBatchRequest,
  idempotencyKey: string,
  signal: AbortSignal | undefined,
  onRetry: ((notice: RetryNotice) => void) | undefined,
  onAnswer?: (answer: { readonly replayed: boolean }) => void,
) => Promise<MessageBatchResult>;

/** What `messaging send` adds to a chunked send, through the client's {@link SEND_PLANNED} method only. */
export interface PlannedSendHooks {
  /** Every message was already validated: not checked again. */
  readonly prevalidated?: boolean;
  /** The caller's own cut of an array (a `MessageBatch` cuts by bytes as well as count). */
  readonly chunkSizes?: readonly number[];
  /** The caller's own lazy cut of a streamed input. Takes precedence over `chunkSizes` and `batchSize`. */
  readonly cut?: (source: Iterable<unknown> | AsyncIterable<unknown>) => AsyncIterable<Chunk<unknown>>;
  readonly keyOf?: (index: number) => string;
  /** The chunks' items are their messages' JSON texts, sent byte for byte (a `MessageBatch`'s canonical messages). */
  readonly encoded?: boolean;
  /** Called just before a chunk's first request. If it throws, the chunk is not sent and the send stops. */
  readonly beforeSend?: (chunk: Chunk<Message>, key: string) => void;
  /** A chunk the service answered from its idempotency record (`Idempotent-Replayed: true`). */
  readonly onReplayed?: (batch: SentBatch) => void;
  /** Called once for each chunk that failed for good (after its retries). */
  readonly onChunkFailed?: (chunk: Chunk<Message>, key: string, error: unknown) => void;
}

/** Not exported from the package. */
export const SEND_PLANNED: unique symbol = Symbol("pulumi-messaging.sendPlanned");

const SendMessagesOptionsSchema = z.object({
  stream: Stream,
  batchSize: z
    .int({ error: "expected an integer" })
    .min(1, { error: "expected at least 1" })
    .max(MAX_MESSAGES_PER_BATCH, { error: `expected at most ${MAX_MESSAGES_PER_BATCH} (messages per call)` })
    .optional(),
  idempotencyKeyPrefix: IdempotencyKeyPrefix.optional(),
  concurrency: z
    .int({ error: "expected an integer" })
    .min(1, { error: "expected at least 1" })
    .max(MAX_SEND_CONCURRENCY, { error: `expected at most ${MAX_SEND_CONCURRENCY}` })
    .optional(),
  skipChunks: z.custom<ReadonlySet<number>>((value) => value instanceof Set, { error: "expected a Set of chunk indexes" }).optional(),
  onProgress: z
    .custom<(progress: SendProgress) => void>((value) => typeof value === "function", { error: "expected a function" })
    .optional(),
  onRetry: z.custom<(retry: SendRetry) => void>((value) => typeof value === "function", { error: "expected a function" }).optional(),
  signal: z.custom<AbortSignal>((value) => value instanceof AbortSignal, { error: "expected an AbortSignal" }).optional(),
  stopSignal: z.custom<AbortSignal>((value) => value instanceof AbortSignal, { error: "expected an AbortSignal" }).optional(),
});

/**
 * {@link MessagingClient.sendMessages}. Once any chunk has started, every failure (a chunk, bad
 * input, the source, an abort, `onProgress`) stops the send: no further chunk is started,
 * chunks in flight are awaited. Before that, the error itself is thrown.
 */
export async function sendInChunks(
  messages: unknown,
  options: SendMessagesOptions,
  sendBatch: SendBatch,
  hooks: PlannedSendHooks = {},
): Promise<SendMessagesResult> {
  const parsedOptions = SendMessagesOptionsSchema.safeParse(options);
  if (!parsedOptions.success) throw new ValidationError("sendMessages options", toFieldErrors(parsedOptions.error.issues));
  const { stream, onProgress, onRetry, signal, stopSignal } = parsedOptions.data;
  const batchSize = parsedOptions.data.batchSize ?? MAX_MESSAGES_PER_BATCH;
  const concurrency = parsedOptions.data.concurrency ?? DEFAULT_SEND_CONCURRENCY;
  const prefix = parsedOptions.data.idempotencyKeyPrefix ?? newIdempotencyKey();
  const skip = parsedOptions.data.skipChunks ?? new Set<number>();
  const prevalidated = hooks.prevalidated === true;
  const keyOf = hooks.keyOf ?? ((index: number) => chunkIdempotencyKey(prefix, index));

  if (!isIterable(messages)) {
    throw new ValidationError("messages", { messages: ["expected an array, an iterable or an async iterable of messages"] });
  }
  const upfront = Array.isArray(messages);
  const source: Iterable<unknown> | AsyncIterable<unknown> = upfront && !prevalidated ? parseMessages(messages, 0) : messages;
  const totalMessages = upfront ? messages.length : undefined;
  signal?.throwIfAborted();

  const accepted: SentBatch[] = [];
  const inFlight = new Set<Promise<void>>();
  let started = 0;
  let sentMessages = 0;
  let skippedMessages = 0;
  let failure: { index: number; cause: unknown } | undefined;
  const fail = (index: number, cause: unknown) => {
    if (failure === undefined || index < failure.index) failure = { index, cause };
  };

  const send = async (chunk: Chunk<Message>) => {
    const idempotencyKey = keyOf(chunk.index);
    const notify = onRetry && ((notice: RetryNotice) => onRetry({ ...notice, chunkIndex: chunk.index }));
    let result: MessageBatchResult;
    let replayed = false;
    try {
      hooks.beforeSend?.(chunk, idempotencyKey);
    } catch (error) {
      fail(chunk.index, error);
      return;
    }
    try {
      result = await sendBatch({ stream, messages: chunk.items }, idempotencyKey, signal, notify, (answer) => {
        replayed = answer.replayed;
      });
    } catch (error) {
      hooks.onChunkFailed?.(chunk, idempotencyKey, error);
      fail(chunk.index, error);
      return;
    }
    const batch: SentBatch = { index: chunk.index, id: result.id, count: chunk.items.length, idempotencyKey };
    accepted.push(batch);
    if (replayed) hooks.onReplayed?.(batch);
    sentMessages += chunk.items.length;
    try {
      onProgress?.({ sentMessages, totalMessages, sentBatches: accepted.length, batch });
    } catch (error) {
      fail(chunk.index + 1, error);
    }
  };

  let nextIndex = 0;
  try {
    const cut = hooks.cut
      ? hooks.cut(source)
      : hooks.chunkSizes && Array.isArray(source)
        ? sizedChunks(source, hooks.chunkSizes)
        : chunks(source, batchSize);
    for await (const raw of cut) {
      nextIndex = raw.index;
      if (failure !== undefined) break;
      const stop = signal?.aborted ? signal : stopSignal?.aborted ? stopSignal : undefined;
      if (stop) {
        fail(raw.index, stop.reason);
        break;
      }
      if (skip.has(raw.index)) {
        skippedMessages += raw.items.length;
        nextIndex = raw.index + 1;
        continue;
      }
      let chunk: Chunk<Message>;
      try {
        chunk = upfront || prevalidated ? (raw as Chunk<Message>) : { ...raw, items: parseMessages(raw.items, raw.offset) };
      } catch (error) {
        fail(raw.index, error);
        break;
      }
      started++;
      const task: Promise<void> = send(chunk).finally(() => inFlight.delete(task));
      inFlight.add(task);
      nextIndex = raw.index + 1;
      if (inFlight.size >= concurrency) await Promise.race(inFlight);
      // Checked before the source is read again, so a failure consumes no further input.
      if (failure !== undefined) break;
    }
  } catch (error) {
    // The caller's iterable threw while being read.
    fail(nextIndex, error);
  }
  await Promise.all(inFlight);

  accepted.sort((a, b) => a.index - b.index);
  if (failure !== undefined) {
    if (started === 0 && skip.size === 0) throw failure.cause;
    // The first chunk neither accepted nor skipped (with concurrency, later ones may have been).
    const done = new Set([...skip, ...accepted.map((batch) => batch.index)]);
    let failedIndex = 0;
    while (done.has(failedIndex)) failedIndex++;
    throw new PartialSendError(accepted, failedIndex, prefix, failure.cause);
  }
  return { batches: accepted, messageCount: sentMessages, skippedMessages, idempotencyKeyPrefix: prefix };
}
