import { parseArgs } from "node:util";
import { MessagingClient } from "../client";
import { ConfigurationError, isConfigurationError, isPartialSendError, isValidationError } from "../errors";
import { IdempotencyKeyPrefix, MAX_MESSAGES_PER_BATCH, type Message } from "../schemas";
import { readMessages } from "./read-messages";

const USAGE = "usage: messaging send --file FILE [--stream transactional] [--dry-run] [--idempotency-key-prefix KEY]";

/** Parsed `messaging send` options. */
interface SendCommandOptions {
  readonly file: string;
  readonly stream: string;
  readonly dryRun: boolean;
  readonly idempotencyKeyPrefix?: string;
}

/** The options, or why the arguments are not usable. */
function parse(argv: string[]): SendCommandOptions | string {
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
      allowPositionals: false,
    }));
  } catch (error) {
    return (error as Error).message;
  }
  if (!values.file) return "missing --file";
  if (!values.stream) return "--stream must not be empty";
  const prefix = values["idempotency-key-prefix"];
  // Checked here (not only by the client) so a bad prefix is a usage error before any work.
  if (prefix !== undefined) {
    const checked = IdempotencyKeyPrefix.safeParse(prefix);
    if (!checked.success) return `--idempotency-key-prefix: ${checked.error.issues[0].message}`;
  }
  return { file: values.file, stream: values.stream, dryRun: values["dry-run"], idempotencyKeyPrefix: prefix };
}

/**
 * `messaging send --file FILE [--stream S] [--dry-run] [--idempotency-key-prefix KEY]`:
 * validates every message in the file (nothing is sent if any is invalid), then sends them
 * in calls of up to 1,000 with progress on stderr. Reads MESSAGING_API_KEY,
 * MESSAGING_BASE_URL and MESSAGING_API_VERSION (not needed for `--dry-run`). If sending
 * stops part-way it prints the command that resumes without sending anything twice.
 * @returns the exit code: 0 sent (or valid, with `--dry-run`), 1 failed, 2 bad arguments.
 */
export async function runSendCommand(argv: string[]): Promise<number> {
  const options = parse(argv);
  if (typeof options === "string") {
    process.stderr.write(`messaging send: ${options}\n${USAGE}\n`);
    return 2;
  }

  let messages: Message[];
  try {
    messages = readMessages(options.file);
  } catch (error) {
    if (!isValidationError(error)) throw error;
    process.stderr.write(`messaging send: ${error.message}\nnothing was sent\n`);
    return 1;
  }
  const calls = Math.ceil(messages.length / MAX_MESSAGES_PER_BATCH);
  if (options.dryRun) {
    process.stdout.write(`dry run: ${messages.length} valid message(s) in ${calls} call(s) on stream '${options.stream}'; nothing sent\n`);
    return 0;
  }

  const client = clientFromEnvironment();
  const interactive = process.stderr.isTTY === true;
  try {
    const result = await client.sendMessages(messages, {
      stream: options.stream,
      // Explicit, so the call count printed above cannot drift from the client's default.
      batchSize: MAX_MESSAGES_PER_BATCH,
      // When none is given the client generates one; a PartialSendError carries it either way.
      idempotencyKeyPrefix: options.idempotencyKeyPrefix,
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
    if (!isPartialSendError(error)) throw error;
    // Ends the progress line left open by `\r` on a terminal.
    process.stderr.write(`${interactive ? "\n" : ""}messaging send: ${error.message}\n`);
    const resume = ["messaging", "send", "--file", options.file, "--stream", options.stream, "--idempotency-key-prefix", error.idempotencyKeyPrefix];
    process.stderr.write(`resume without sending anything twice: ${resume.map(shellQuote).join(" ")}\n`);
    return 1;
  } finally {
    await client.close();
  }
}

/** A client from MESSAGING_API_KEY / MESSAGING_BASE_URL / MESSAGING_API_VERSION. */
function clientFromEnvironment(): MessagingClient {
  const apiKey = process.env.MESSAGING_API_KEY;
  const baseUrl = process.env.MESSAGING_BASE_URL;
  if (!apiKey) throw new ConfigurationError("No API key: set the environment variable MESSAGING_API_KEY.");
  if (!baseUrl) throw new ConfigurationError("No base URL: set the environment variable MESSAGING_BASE_URL (e.g. the emulator's URL).");
  try {
    return new MessagingClient({ apiKey, baseUrl, apiVersion: process.env.MESSAGING_API_VERSION || undefined });
  } catch (error) {
    // The client names its options ('baseUrl'…); the user set environment variables.
    if (!isConfigurationError(error)) throw error;
    throw new ConfigurationError(
      `${error.message} (set from MESSAGING_API_KEY, MESSAGING_BASE_URL and MESSAGING_API_VERSION)`,
    );
  }
}

/** Quotes an argument for a POSIX shell when it holds anything beyond safe characters. */
function shellQuote(argument: string): string {
  return /^[\w@%+=:,./-]+$/.test(argument) ? argument : `'${argument.replace(/'/g, `'\\''`)}'`;
}
