/**
 * `messaging:maxMessagesPerUpdate` (or MESSAGING_MAX_MESSAGES_PER_UPDATE): the most messages one update may send, every batch
 * together, so a send nobody meant (a `triggers` changed by mistake re-sends a million messages) is stopped before any call. One
 * provider process serves one deployment (a preview, or an update), and sees each batch it will send before its first call:
 * `check` (a new batch), `diff` (a replacement, a part-sent batch) and the send itself.
 */
import { messageLimitProblem, SETTINGS } from "../../../client/settings";
import { ConfigurationError, UnsupportedOperationError } from "../../../errors";
import type { ProviderContext } from "../../context";
import { formatCount } from "./blast-radius";

const SENDS = "messageBatch.sends";

/** The limit, or undefined when unset. @throws ConfigurationError for a value that is not a whole number */
export function messageLimit(context: ProviderContext): number | undefined {
  const value = context.setting("maxMessagesPerUpdate");
  if (value === undefined || value === "") return undefined;
  const problem = messageLimitProblem(value);
  if (problem)
    throw new ConfigurationError(`${SETTINGS.maxMessagesPerUpdate.config} (or ${SETTINGS.maxMessagesPerUpdate.env}): ${problem}.`);
  return Number(value);
}

/**
 * Records that batch `name` (at `key`, its URN) will send `count` messages in this deployment, and says why not when the
 * deployment's batches together would send more than the limit; undefined when within it (or no limit is set).
 */
export function refusalOf(context: ProviderContext, key: string, name: string, count: number): string | undefined {
  let sends = context.deployment.get(SENDS) as Map<string, { name: string; count: number }> | undefined;
  if (!sends) context.deployment.set(SENDS, (sends = new Map()));
  sends.set(key, { name, count });
  const limit = messageLimit(context);
  if (limit === undefined) return undefined;
  const all = [...sends.values()];
  const total = all.reduce((sum, send) => sum + send.count, 0);
  if (total <= limit) return undefined;
  const each = all.map((send) => `${send.name} ${formatCount(send.count)}`).join(", ");
  return (
    `this update would send ${formatCount(total)} messages (${each}), more than ${SETTINGS.maxMessagesPerUpdate.config} ` +
    `(or ${SETTINGS.maxMessagesPerUpdate.env}) allows: ${formatCount(limit)}. ${name} was not sent. If these sends are meant, ` +
    `raise the limit (\`pulumi config set ${SETTINGS.maxMessagesPerUpdate.config} ${total}\`); if not, change what is declared ` +
    "(a `triggers` changed replaces a batch and sends it again)"
  );
}

/** @throws UnsupportedOperationError when the deployment's batches would send more than the limit */
export function guardSend(context: ProviderContext, key: string, name: string, count: number): void {
  const refusal = refusalOf(context, key, name, count);
  if (refusal) throw new UnsupportedOperationError(`message batch ${name}: ${refusal}`);
}
