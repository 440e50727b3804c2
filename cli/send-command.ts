import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { MessagingClient } from "../client";
import { ConfigurationError, isPartialSendError } from "../errors";
import { MAX_MESSAGES_PER_BATCH } from "../schemas";
import { readMessages } from "./read-messages";

const USAGE = "usage: messaging send --file FILE [--stream transactional] [--dry-run] [--idempotency-key-prefix KEY]";

/**
 * `messaging send`: validates every message in the file, then sends them in calls of up
 * to 1,000 with progress on stderr. Reads MESSAGING_API_KEY, MESSAGING_BASE_URL and
 * MESSAGING_API_VERSION. If sending stops part-way it prints how to resume without
 * sending anything twice.
 */
export async function runSendCommand(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        file: { type: "string" },
        stream: { type: "string", default: "transactional" },
        "dry-run": { type: "boolean", default: false },
        "idempotency-key-prefix": { type: "string" },
      },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (!values.file) {
    process.stderr.write(`missing --file\n${USAGE}\n`);
    return 2;
  }

  const messages = readMessages(values.file);
  const calls = Math.ceil(messages.length / MAX_MESSAGES_PER_BATCH);
  if (values["dry-run"]) {
    process.stdout.write(`dry run: ${messages.length} valid message(s) in ${calls} call(s) on stream '${values.stream}'; nothing sent\n`);
    return 0;
  }

  const apiKey = process.env.MESSAGING_API_KEY;
  const baseUrl = process.env.MESSAGING_BASE_URL;
  if (!apiKey) throw new ConfigurationError("No API key: set the environment variable MESSAGING_API_KEY.");
  if (!baseUrl) throw new ConfigurationError("No base URL: set the environment variable MESSAGING_BASE_URL (e.g. the emulator's URL).");
  const client = new MessagingClient({ apiKey, baseUrl, apiVersion: process.env.MESSAGING_API_VERSION || undefined });
  // Known before the first call, so a failed run can always be resumed without duplicates.
  const prefix = values["idempotency-key-prefix"] ?? randomUUID();
  const interactive = process.stderr.isTTY === true;
  try {
    const result = await client.sendMessages(messages, {
      stream: values.stream!,
      idempotencyKeyPrefix: prefix,
      onProgress: ({ sentMessages, sentBatches }) => {
        const line = `sent ${sentMessages}/${messages.length} messages (${sentBatches}/${calls} calls)`;
        process.stderr.write(interactive ? `\r${line}` : `${line}\n`);
      },
    });
    if (interactive) process.stderr.write("\n");
    const ids = result.batches.map((batch) => batch.id ?? "(no id)").join(", ");
    process.stdout.write(`sent ${result.messageCount} message(s) in ${result.batches.length} call(s): ${ids}\n`);
    return 0;
  } catch (error) {
    if (isPartialSendError(error)) {
      process.stderr.write(`\n${error.message}\n`);
      process.stderr.write(`resume without sending anything twice: messaging send --file ${values.file} --stream ${values.stream} --idempotency-key-prefix ${prefix}\n`);
      return 1;
    }
    throw error;
  } finally {
    await client.close();
  }
}
