import { createHash, randomBytes, type Hash } from "node:crypto";
import { parseArgs } from "node:util";
import type { MessagingClient } from "../client/messaging-client";
import { clientFromSettings, SETTINGS } from "../client/settings";
import { PREVALIDATED, type SendMessagesOptions } from "../client/send-messages";
import { checkMessage, InvalidMessages } from "../client/validate";
import {
  isApiError,
  isAuthenticationError,
  isConfigurationError,
  isInvalidRequestError,
  isMessagingError,
  isPartialSendError,
  isPermissionError,
  type ApiError,
  type ValidationError,
} from "../errors/messaging-error";
import { IdempotencyKeyPrefix } from "../schemas/idempotency-key";
import { MAX_MESSAGES_PER_BATCH, type Message } from "../schemas/types";
import { FileError, fileFormat, readEntries, type FileFormat } from "./message-file";
import { createProgress } from "./progress";
import { defaultStateDir, KEY_MEMORY_MS, SendJournal, sendKeyPrefix, type SendIdentity } from "./send-journal";

export const SEND_USAGE = "usage: messaging send --file FILE [--stream NAME] [options]   (messaging send --help for all)";

export const SEND_HELP = `messaging send — send every message of a file, each exactly once

usage: messaging send --file FILE [--stream NAME] [options]

Reads the file twice, as a stream (memory stays flat whatever its size): first to check
every message (nothing is sent if one is invalid: the first 100 problems are listed, by
line and field, then a count), then to send them in calls of up to 1,000. Each call's
idempotency key is derived from the file's content, the stream, the batch size and the
send id, and every confirmed call is written to a journal: running the same command again
after any interruption (Ctrl-C, a kill, a crash, a cancelled CI job) sends only what the
service has not confirmed, and nothing twice.

options:
  --file FILE            the messages (required)
  --stream NAME          stream of every batch (default: transactional)
  --format FORMAT        ndjson, json or csv (default: from the extension:
                         .ndjson/.jsonl, .json, .csv)
  --batch-size N         messages per call, 1-1000 (default: 1000)
  --concurrency N        calls in flight at once, 1-16 (default: 1)
  --dry-run              check the file only; send nothing (needs no API key)
  --resend               send the file again although it was sent: a new send id, so
                         new keys (the command to finish it carries --send-id)
  --send-id ID           continue the send with this id (printed by --resend)
  --state-dir DIR        where journals are kept (see MESSAGING_STATE_DIR)
  --idempotency-key-prefix KEY
                         use KEY-<call> as the keys instead of the derived ones
  --json                 print one JSON object with the outcome on stdout
                         (batch ids included); progress stays on stderr
  -h, --help             this help

environment:
  MESSAGING_API_KEY      the API key (required to send)
  MESSAGING_BASE_URL     the service's (or the emulator's) URL (required to send)
  MESSAGING_API_VERSION  X-Service-Version (default: 2024-06-01)
  MESSAGING_STATE_DIR    journal directory (default: $XDG_STATE_HOME/pulumi-messaging/sends,
                         or ~/.local/state/pulumi-messaging/sends)

file formats:
  NDJSON  one message a line: {"tos":["+254712345678"],"body":"Hello"}; blank lines skipped
  JSON    an array of messages, or {"messages": [...]}
  CSV     a header row, then columns to (numbers separated by ';') and body, or
          template_id and model.<name> columns
  UTF-8 only (a byte order mark is ignored). Rejected, naming the line and field:
  invalid UTF-8, numbers out of range, keys named __proto__, nesting deeper than 32,
  duplicate or unknown CSV columns.

exit codes:
  0    sent (or already sent; or valid, with --dry-run)
  1    not sent or not all sent: the message says why, and whether running the same
       command again finishes it or what to fix first
  2    bad arguments
  130  interrupted by SIGINT (Ctrl-C): calls in flight were let finish; the command
       to finish is printed
  143  interrupted by SIGTERM, likewise
`;

/** Parsed `messaging send` options. */
interface SendOptions {
  readonly file: string;
  readonly stream: string;
  readonly format: FileFormat;
  readonly formatGiven: boolean;
  readonly batchSize: number;
  readonly concurrency?: number;
  readonly dryRun: boolean;
  readonly resend: boolean;
  readonly sendId?: string;
  readonly stateDir?: string;
  readonly idempotencyKeyPrefix?: string;
  readonly json: boolean;
}

/** The options, "help", or why the arguments are not usable. */
function parse(argv: string[]): SendOptions | "help" | string {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        file: { type: "string" },
        stream: { type: "string", default: "transactional" },
        format: { type: "string" },
        "batch-size": { type: "string" },
        concurrency: { type: "string" },
        "dry-run": { type: "boolean", default: false },
        resend: { type: "boolean", default: false },
        "send-id": { type: "string" },
        "state-dir": { type: "string" },
        "idempotency-key-prefix": { type: "string" },
        json: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return (error as Error).message;
  }
  if (values.help) return "help";
  if (!values.file) return "missing --file";
  if (!values.stream) return "--stream must not be empty";
  const batchSize = integerOption("--batch-size", values["batch-size"], 1, MAX_MESSAGES_PER_BATCH);
  if (typeof batchSize === "string") return batchSize;
  const concurrency = integerOption("--concurrency", values.concurrency, 1, 16);
  if (typeof concurrency === "string") return concurrency;
  const format = fileFormat(values.file, values.format);
  if (!(["ndjson", "json", "csv"] as string[]).includes(format)) return format;
  const prefix = values["idempotency-key-prefix"];
  if (prefix !== undefined) {
    const checked = IdempotencyKeyPrefix.safeParse(prefix);
    if (!checked.success) return `--idempotency-key-prefix: ${checked.error.issues[0].message}`;
  }
  const sendId = values["send-id"];
  if (sendId !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(sendId)) return "--send-id: expected 1-64 letters, digits, '-' or '_'";
  if (values.resend && sendId !== undefined) return "--resend starts a new send; --send-id continues one: give one of them";
  if (values["state-dir"] === "") return "--state-dir must not be empty";
  return {
    file: values.file,
    stream: values.stream,
    format: format as FileFormat,
    formatGiven: values.format !== undefined,
    batchSize: batchSize ?? MAX_MESSAGES_PER_BATCH,
    concurrency,
    dryRun: values["dry-run"],
    resend: values.resend,
    sendId,
    stateDir: values["state-dir"],
    idempotencyKeyPrefix: prefix,
    json: values.json,
  };
}

function integerOption(name: string, text: string | undefined, min: number, max: number): number | undefined | string {
  if (text === undefined) return undefined;
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  return value >= min && value <= max ? value : `${name} must be an integer from ${min} to ${max}, got '${text}'`;
}

/** Why a send stopped on a signal. */
class Interrupted extends Error {
  constructor(readonly signalName: "SIGINT" | "SIGTERM") {
    super(`interrupted by ${signalName}`);
  }
}

/** The file's content is not what the first pass checked. */
class FileChanged extends Error {}

/** How long calls in flight are let finish after Ctrl-C, in ms, before they are cancelled. */
const SETTLE_MS = 10_000;

/**
 * SIGINT/SIGTERM while sending: the first stops new calls (`stop`) and lets calls in
 * flight settle for up to {@link SETTLE_MS}, then cancels them (`cancel`); a second one
 * cancels at once.
 */
class SignalWatch {
  readonly stop = new AbortController();
  readonly cancel = new AbortController();
  received?: Interrupted;
  #timer?: NodeJS.Timeout;
  readonly #onSignal = (name: "SIGINT" | "SIGTERM") => {
    if (this.received) {
      this.cancel.abort(this.received);
      return;
    }
    this.received = new Interrupted(name);
    this.stop.abort(this.received);
    this.#timer = setTimeout(() => this.cancel.abort(this.received), SETTLE_MS);
    this.#timer.unref();
  };
  readonly #sigint = () => this.#onSignal("SIGINT");
  readonly #sigterm = () => this.#onSignal("SIGTERM");

  constructor() {
    process.on("SIGINT", this.#sigint);
    process.on("SIGTERM", this.#sigterm);
  }

  dispose(): void {
    clearTimeout(this.#timer);
    process.off("SIGINT", this.#sigint);
    process.off("SIGTERM", this.#sigterm);
  }
}

/** What the first pass found. */
interface CheckedFile {
  readonly messages: number;
  readonly fileDigest: string;
  /** SHA-256 of each chunk's source text, in order. */
  readonly chunkDigests: string[];
}

/** The outcome printed with `--json`. */
type Outcome = Record<string, unknown> & { status: string };

/**
 * `messaging send --file FILE [...]` (see {@link SEND_HELP}): checks the whole file, then
 * sends it in chunks under keys derived from its content, journaling each confirmed chunk.
 * @returns the exit code (see {@link SEND_HELP})
 */
export async function runSendCommand(argv: string[]): Promise<number> {
  const options = parse(argv);
  if (options === "help") {
    process.stdout.write(SEND_HELP);
    return 0;
  }
  if (typeof options === "string") {
    process.stderr.write(`messaging send: ${options}\n${SEND_USAGE}\n`);
    return 2;
  }
  const signals = new SignalWatch();
  try {
    return await send(options, signals);
  } finally {
    signals.dispose();
  }
}

async function send(options: SendOptions, signals: SignalWatch): Promise<number> {
  const started = Date.now();
  const report = (outcome: Outcome, text: string, code: number, stream: "stdout" | "stderr" = code === 0 ? "stdout" : "stderr") => {
    if (options.json)
      process.stdout.write(
        `${JSON.stringify({ ...outcome, file: options.file, stream: options.stream, durationMs: Date.now() - started })}\n`,
      );
    if (!options.json || stream === "stderr") (stream === "stdout" ? process.stdout : process.stderr).write(text);
    return code;
  };

  // Pass 1: check every message; hash the file and each chunk.
  let checked: CheckedFile;
  try {
    const result = await checkFile(options, signals);
    if (result instanceof Interrupted) {
      return report(
        { status: "interrupted", sentMessages: 0 },
        `messaging send: ${result.message} while checking the file; nothing was sent\n`,
        exitCodeOf(result),
      );
    }
    if ("invalid" in result) {
      return report(
        { status: "invalid", errors: result.invalid.fieldErrors },
        `messaging send: ${result.invalid.message}\nnothing was sent\n`,
        1,
      );
    }
    checked = result;
  } catch (error) {
    if (!(error instanceof FileError)) throw error;
    return report({ status: "invalid", error: error.message }, `messaging send: ${options.file}: ${error.message}\nnothing was sent\n`, 1);
  }
  const chunks = checked.chunkDigests.length;
  if (checked.messages === 0) {
    return report(
      { status: "invalid", error: "no messages found" },
      `messaging send: ${options.file}: no messages found\nnothing was sent\n`,
      1,
    );
  }
  if (options.dryRun) {
    return report(
      { status: "dry_run", messages: checked.messages, calls: chunks },
      `dry run: ${checked.messages} valid message(s) in ${chunks} call(s) on stream '${options.stream}'; nothing sent\n`,
      0,
    );
  }

  let client: MessagingClient;
  try {
    client = clientFromSettings();
  } catch (error) {
    if (!isConfigurationError(error)) throw error;
    return report(
      { status: "failed", error: { code: error.code, message: error.message, retryable: false } },
      `messaging send: ${error.message}\nnothing was sent\n`,
      1,
    );
  }

  const identity: SendIdentity = {
    fileDigest: checked.fileDigest,
    stream: options.stream,
    batchSize: options.batchSize,
    sendId: options.sendId ?? (options.resend ? randomBytes(6).toString("hex") : ""),
  };
  const keyPrefix = options.idempotencyKeyPrefix ?? sendKeyPrefix(identity);
  const finish = finishCommand(options, identity.sendId);
  const stateDir = options.stateDir ?? defaultStateDir();
  let journal: SendJournal | undefined;
  try {
    journal = SendJournal.open(stateDir, {
      version: 1,
      ...identity,
      keyPrefix,
      file: options.file,
      messages: checked.messages,
      chunks,
      startedAt: new Date().toISOString(),
    });
  } catch (error) {
    process.stderr.write(
      `messaging send: warning: cannot keep a journal in ${stateDir} (${(error as Error).message}); sending anyway: ` +
        "a re-run then asks the service again for every call, under the same keys\n",
    );
  }
  const confirmedBefore = journal?.confirmedMessages ?? 0;
  const base = { messages: checked.messages, calls: chunks, keyPrefix, sendId: identity.sendId || undefined, journal: journal?.path };

  try {
    if (journal && journal.confirmed.size === chunks) {
      return report(
        { ...base, status: "already_sent", sentMessages: 0, skippedMessages: checked.messages, batchIds: batchIds(journal) },
        `already sent: all ${checked.messages} message(s) of ${options.file} were confirmed in ${chunks} call(s) (journal ${journal.path}); nothing to do.\n` +
          "To send the same messages again, add --resend.\n",
        0,
      );
    }
    if (journal && journal.confirmed.size > 0) {
      const age = Date.now() - journal.startedAt.getTime();
      process.stderr.write(
        `continuing: ${confirmedBefore} of ${checked.messages} message(s) were confirmed by an earlier run; sending the rest\n`,
      );
      if (age > KEY_MEMORY_MS) {
        process.stderr.write(
          "messaging send: warning: this send began more than 24 hours ago, longer than the service is assumed to remember keys: " +
            "a call that was sent but not confirmed before the interruption may be delivered again\n",
        );
      }
    }

    const progress = createProgress(checked.messages, confirmedBefore);
    let confirmed = confirmedBefore;
    const sendOptions: SendMessagesOptions & { [PREVALIDATED]: true } = {
      stream: options.stream,
      batchSize: options.batchSize,
      idempotencyKeyPrefix: keyPrefix,
      concurrency: options.concurrency,
      skipChunks: new Set(journal?.confirmed.keys() ?? []),
      signal: signals.cancel.signal,
      stopSignal: signals.stop.signal,
      onProgress: ({ batch }) => {
        journal?.record({ chunk: batch.index, count: batch.count, id: batch.id });
        confirmed += batch.count;
        progress.update(confirmed);
      },
      onRetry: ({ reason, delayMs }) => progress.retry(reason, delayMs),
      [PREVALIDATED]: true,
    };
    let failure: unknown;
    let sentNow = 0;
    try {
      const result = await client.sendMessages(messagesOf(options, checked), sendOptions);
      sentNow = result.messageCount;
    } catch (error) {
      failure = error;
    } finally {
      progress.stop();
      await client.close();
    }
    const seconds = (Date.now() - started) / 1000;

    if (failure === undefined) {
      const perSecond = sentNow / Math.max(seconds, 0.001);
      const skipped = confirmedBefore > 0 ? ` (${confirmedBefore} more were confirmed by an earlier run)` : "";
      return report(
        {
          ...base,
          status: "sent",
          sentMessages: sentNow,
          skippedMessages: confirmedBefore,
          messagesPerSecond: Math.round(perSecond),
          batchIds: journal ? batchIds(journal) : undefined,
        },
        `sent ${sentNow} message(s)${skipped} in ${seconds.toFixed(1)} s (${Math.round(perSecond)} msg/s): all ${checked.messages} of ${options.file} confirmed in ${chunks} call(s)\n`,
        0,
      );
    }
    return reportFailure(failure, { options, base, confirmed, total: checked.messages, finish, report });
  } finally {
    journal?.close();
  }
}

/** Pass 1: every message checked, the file and each chunk hashed; or the problems; or an interruption. */
async function checkFile(options: SendOptions, signals: SignalWatch): Promise<CheckedFile | { invalid: ValidationError } | Interrupted> {
  const fileHash = createHash("sha256");
  const invalid = new InvalidMessages(`messages in ${options.file}`, "(file)");
  const chunkDigests: string[] = [];
  let chunkHash = createHash("sha256");
  let messages = 0;
  for await (const entries of readEntries(options.file, options.format, (bytes) => fileHash.update(bytes))) {
    if (signals.received) return signals.received;
    for (const entry of entries) {
      chunkHash.update(entry.source).update("\n");
      if (entry.problem) {
        invalid.addReason(entry.problem.field ? `${entry.location}: ${entry.problem.field}` : entry.location, entry.problem.reason);
      } else {
        const verdict = checkMessage(entry.value);
        if (!verdict.ok) invalid.addIssues(entry.location, verdict.issues);
      }
      messages++;
      if (messages % options.batchSize === 0) {
        chunkDigests.push(chunkHash.digest("hex"));
        chunkHash = createHash("sha256");
      }
    }
  }
  if (messages % options.batchSize !== 0) chunkDigests.push(chunkHash.digest("hex"));
  const error = invalid.toError();
  if (error) return { invalid: error };
  return { messages, fileDigest: fileHash.digest("hex"), chunkDigests };
}

/**
 * Pass 2: the messages again, in order, as the first pass read them (not validated again).
 * Each chunk's text is hashed and compared with the first pass's before its last message is
 * handed over, so a file changed in between stops the send before that chunk goes out.
 */
async function* messagesOf(options: SendOptions, checked: CheckedFile): AsyncGenerator<Message, void, undefined> {
  let chunkHash: Hash = createHash("sha256");
  let index = 0;
  for await (const entries of readEntries(options.file, options.format)) {
    for (const entry of entries) {
      if (entry.problem || index >= checked.messages)
        throw new FileChanged(`${options.file} changed since it was checked (at ${entry.location})`);
      chunkHash.update(entry.source).update("\n");
      const chunk = Math.floor(index / options.batchSize);
      index++;
      if (index % options.batchSize === 0 || index === checked.messages) {
        if (chunkHash.digest("hex") !== checked.chunkDigests[chunk]) {
          throw new FileChanged(`${options.file} changed since it was checked (call ${chunk}, up to ${entry.location})`);
        }
        chunkHash = createHash("sha256");
      }
      yield entry.value as Message;
    }
  }
  if (index !== checked.messages) throw new FileChanged(`${options.file} changed since it was checked (it now holds fewer messages)`);
}

function batchIds(journal: SendJournal): Array<string | null> {
  return [...journal.confirmed.values()].sort((a, b) => a.chunk - b.chunk).map((chunk) => chunk.id ?? null);
}

function exitCodeOf(interrupted: Interrupted): number {
  return interrupted.signalName === "SIGINT" ? 130 : 143;
}

/** A failure that running the same command again cannot fix, with what to fix; undefined for others. */
function whatToFix(cause: unknown): string | undefined {
  if (isAuthenticationError(cause)) return `the service did not accept the API key: set ${SETTINGS.apiKey.env} to a valid key`;
  if (isPermissionError(cause)) return "the API key may not send on this stream: use a key that may, or another --stream";
  if (isApiError(cause) && cause.status === 413) return "the service found a call too large: lower --batch-size";
  if (isInvalidRequestError(cause)) return "the service rejected the messages (see above): correct the file";
  return undefined;
}

interface FailureContext {
  readonly options: SendOptions;
  readonly base: Record<string, unknown>;
  readonly confirmed: number;
  readonly total: number;
  readonly finish: string;
  readonly report: (outcome: Outcome, text: string, code: number, stream?: "stdout" | "stderr") => number;
}

function reportFailure(failure: unknown, { base, confirmed, total, finish, report }: FailureContext): number {
  const cause = isPartialSendError(failure) ? failure.cause : failure;
  const counts = { ...base, sentMessages: confirmed, confirmedMessages: confirmed };
  const sentLine = `${confirmed} of ${total} message(s) are confirmed`;
  if (cause instanceof Interrupted) {
    return report(
      { ...counts, status: "interrupted", signal: cause.signalName, finishCommand: finish },
      `\nmessaging send: ${cause.message}: ${sentLine}. Nothing was sent twice and nothing is lost: finish with\n  ${finish}\n`,
      exitCodeOf(cause),
    );
  }
  if (cause instanceof FileChanged) {
    return report(
      { ...counts, status: "failed", error: { code: "file_changed", message: cause.message, retryable: false } },
      `messaging send: ${cause.message}; nothing more was sent (${sentLine}). Check the file, then run the command again.\n`,
      1,
    );
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  const code = isMessagingError(cause) ? cause.code : "error";
  const fix = whatToFix(cause);
  if (fix !== undefined) {
    return report(
      { ...counts, status: "failed", error: { code, status: (cause as ApiError).status, message, retryable: false } },
      `messaging send: ${message}\n${sentLine}. Fix: ${fix}.\n`,
      1,
    );
  }
  return report(
    { ...counts, status: "failed", error: { code, message, retryable: true }, finishCommand: finish },
    `messaging send: ${message}\n${sentLine}. Run the same command again to send the rest (nothing is sent twice):\n  ${finish}\n`,
    1,
  );
}

/** The command that finishes this send: the same file, stream and keys. */
function finishCommand(options: SendOptions, sendId: string): string {
  const args = ["messaging", "send", "--file", options.file, "--stream", options.stream];
  if (options.formatGiven) args.push("--format", options.format);
  if (options.batchSize !== MAX_MESSAGES_PER_BATCH) args.push("--batch-size", String(options.batchSize));
  if (options.concurrency !== undefined) args.push("--concurrency", String(options.concurrency));
  if (sendId !== "") args.push("--send-id", sendId);
  if (options.stateDir !== undefined) args.push("--state-dir", options.stateDir);
  if (options.idempotencyKeyPrefix !== undefined) args.push("--idempotency-key-prefix", options.idempotencyKeyPrefix);
  return args.map(shellQuote).join(" ");
}

/** Quotes an argument for a POSIX shell when it holds anything beyond safe characters. */
function shellQuote(argument: string): string {
  return /^[\w@%+=:,./-]+$/.test(argument) ? argument : `'${argument.replace(/'/g, `'\\''`)}'`;
}
