import { createHash, randomUUID } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { MessagingClient } from "../client";
import { isPartialSendError, UnsupportedOperationError } from "../errors";
import { Message, Stream } from "../schemas";
import { checkKnownInputs } from "./check-inputs";
import { ProviderSettings } from "./settings";
import { ResourceInitFailedError } from "./init-failed";
import { containsUnknown } from "./unknown";

/** Inputs that replace the batch (and so send it again) when changed. */
export const MESSAGE_BATCH_INPUTS = ["stream", "messages", "triggers"] as const;

const MessageBatchInputs = z.object({
  stream: Stream,
  messages: z.array(Message).min(1, { error: "expected at least one message" }),
});

/** Validates stream and every message; unknown preview values pass through. */
export function check(news: Record<string, unknown>): pulumi.dynamic.CheckResult {
  const checked = checkKnownInputs(MessageBatchInputs, news);
  return checked.ok ? { inputs: news } : { inputs: news, failures: checked.failures };
}

// Keys sorted by code unit, not locale: the digest must not change with the machine's LANG.
const byCodeUnit = ([a]: [string, unknown], [b]: [string, unknown]): number => (a < b ? -1 : a > b ? 1 : 0);
const canonical = (value: unknown): string => JSON.stringify(value ?? null, (_key, v) =>
  v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(byCodeUnit)) : v);

/**
 * Outputs record a digest of the messages rather than a second copy (Pulumi keeps the
 * messages themselves among the inputs): a part-sent batch's outputs travel in gRPC
 * metadata, which must stay small, and can still be compared by `diff`.
 */
export const messagesDigest = (messages: unknown): string => createHash("sha256").update(canonical(messages)).digest("hex");

/** Messages cannot be changed once sent: any change replaces the resource, which sends again. */
export function diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>): pulumi.dynamic.DiffResult {
  const changed = (key: (typeof MESSAGE_BATCH_INPUTS)[number]): boolean => {
    if (containsUnknown(news[key])) return true;
    if (key === "messages") return olds.messagesDigest !== messagesDigest(news.messages);
    return canonical(olds[key]) !== canonical(news[key]);
  };
  const replaces = MESSAGE_BATCH_INPUTS.filter(changed);
  return { changes: replaces.length > 0, replaces: [...replaces], deleteBeforeReplace: false };
}

/** Sends every message once, chunked by 1,000, all chunks under one idempotency key prefix. */
export async function create(settings: ProviderSettings, inputs: Record<string, unknown>, idempotencyKeyPrefix: string = randomUUID()): Promise<pulumi.dynamic.CreateResult> {
  const messages = inputs.messages as Message[];
  const client = new MessagingClient(settings);
  const base = {
    stream: inputs.stream,
    triggers: inputs.triggers ?? null,
    messageCount: messages.length,
    messagesDigest: messagesDigest(messages),
    idempotencyKeyPrefix,
  };
  try {
    const result = await client.sendMessages(messages, { stream: inputs.stream as string, idempotencyKeyPrefix });
    return {
      id: idempotencyKeyPrefix,
      outs: { ...base, batchIds: result.batches.map((batch) => batch.id ?? null), sentAt: new Date().toISOString() },
    };
  } catch (error) {
    if (isPartialSendError(error)) {
      // Even with no chunk confirmed, the first may have been processed: record the batch
      // under its key prefix, so the next `pulumi up` resends with the same keys.
      throw new ResourceInitFailedError(
        // Only the first line: the client's resume hint is for direct callers, not Pulumi users.
        `${error.message.split("\n")[0]}\nRun \`pulumi up\` again to send the rest; the service does not send a chunk twice for the same key.`,
        idempotencyKeyPrefix,
        { ...base, batchIds: error.sent.map((batch) => batch.id ?? null), sentAt: null },
      );
    }
    throw error;
  } finally {
    await client.close();
  }
}

/** Refresh keeps the recorded state; a batch cannot be imported. */
export function read(id: string, props: Record<string, unknown> | undefined): pulumi.dynamic.ReadResult {
  if (!props || typeof props.messagesDigest !== "string") {
    throw new UnsupportedOperationError(`Cannot import message batch ${id}: the service has no operation to retrieve a batch.`);
  }
  return { id, props };
}

/**
 * Only reached for a batch recorded part-sent (the engine retries resources that failed to
 * initialise): resends under the recorded key prefix, so accepted chunks are replayed by the
 * service, not sent twice. Any other update is impossible: changes replace.
 */
export async function update(settings: () => ProviderSettings, id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.UpdateResult> {
  if (olds.sentAt === null && typeof olds.idempotencyKeyPrefix === "string") {
    const { outs } = await create(settings(), news, olds.idempotencyKeyPrefix);
    return { outs };
  }
  throw new UnsupportedOperationError(`Message batch ${id} cannot be updated: sent messages cannot be changed; changes replace the batch.`);
}

/** Sent messages cannot be recalled; removing the resource only forgets it. */
export function remove(id: string): void {
  process.stderr.write(`note: message batch ${id} was removed from the stack; its messages were already sent and cannot be recalled.\n`);
}
