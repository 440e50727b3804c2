import { parseArgs } from "node:util";
import { MAX_SEND_CONCURRENCY } from "../client/send-messages";
import { IdempotencyKeyPrefix, MAX_IDEMPOTENCY_KEY_LENGTH } from "../schemas/idempotency-key";
import { MAX_MESSAGES_PER_BATCH } from "../schemas/types";
import { CALL_KEY_SUFFIX_LENGTH } from "./message-identity";
import { exitCodesHelp } from "./exit-codes";
import { fileFormat, type FileFormat } from "./message-file";

export const SEND_USAGE = "usage: messaging send --file FILE [--stream NAME] [options]   (messaging send --help for all)";

export const SEND_HELP = `messaging send — send every message of a file, each exactly once

usage: messaging send --file FILE [--stream NAME] [options]

Reads the file twice, as a stream (memory stays flat whatever its size): first to check
every message (nothing is sent if one is invalid: the first 100 problems are listed, by
line and field, then a count) and to plan the run, then to send in calls of up to 1,000.

Each message is known by its content and its occurrence (the second of two identical lines
is a message of its own), and every message the service confirms is written to a journal
kept for this file, service and stream. Running the command again, after an interruption
(Ctrl-C, a kill, a crash, a cancelled CI job) or after the file was edited, sends exactly
the messages not sent yet: lines appended or changed before they were sent go out, lines
already sent do not. A call left unanswered by a killed run is finished first, under the
same idempotency key with the same messages, so the service answers it from its record.

One case is yours to decide: a line that was sent and has changed since (or was removed).
The command then sends nothing, names those lines, and proceeds only with --allow-changed,
which sends the lines not yet sent, new versions included (a second text to those
recipients).

options:
  --file FILE            the messages (required)
  --stream NAME          stream of every batch (default: a JSON file's top-level "stream",
                         else transactional; a --stream that conflicts with it is refused)
  --format FORMAT        ndjson, json or csv (default: from the extension:
                         .ndjson/.jsonl, .json, .csv)
  --batch-size N         messages per call, 1-1000 (default: 1000)
  --concurrency N        calls in flight at once, 1-${MAX_SEND_CONCURRENCY} (default: 1)
  --dry-run              check the file and show what a run would send; send nothing
                         (needs no API key)
  --allow-changed        send although lines sent earlier have changed or gone (see above)
  --in-flight WHAT       a call left in flight more than 24 hours ago, when the service
                         may have forgotten its key: 'sent' records it as sent, 'resend'
                         sends it again under its key
  --resend               send the whole file again, as a new send with an id of its own
                         (printed at the start; finish it with --send-id)
  --send-id ID           continue the --resend with this id
  --state-dir DIR        where journals are kept (see MESSAGING_STATE_DIR)
  --idempotency-key-prefix KEY
                         start every call's key with KEY instead of 'ms2'
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
  UTF-8 only (a byte order mark is ignored; UTF-16 is refused by name). Rejected, naming
  the line and field: invalid UTF-8, duplicate JSON keys, numbers a double does not hold
  exactly (and -0, and beyond 2^53 - 1), keys named __proto__, nesting deeper than 32,
  duplicate or unknown CSV columns, a message too large for a call of its own.

${exitCodesHelp()}  (send: 0 sent, already sent, or valid with --dry-run; 1 not sent or not all sent: the
  message says why, and whether running the same command again finishes it)
`;

/** Parsed `messaging send` options. */
export interface SendOptions {
  readonly file: string;
  readonly stream: string;
  /** --stream was given (else a JSON file's top-level "stream" may name it). */
  readonly streamGiven: boolean;
  readonly format: FileFormat;
  readonly formatGiven: boolean;
  readonly batchSize: number;
  readonly concurrency?: number;
  readonly dryRun: boolean;
  readonly allowChanged: boolean;
  readonly inFlight?: "sent" | "resend";
  readonly resend: boolean;
  readonly sendId?: string;
  readonly stateDir?: string;
  readonly idempotencyKeyPrefix?: string;
  readonly json: boolean;
}

const MAX_PREFIX_LENGTH = MAX_IDEMPOTENCY_KEY_LENGTH - CALL_KEY_SUFFIX_LENGTH;

/** The options, "help", or why the arguments are not usable. */
export function parseSendOptions(argv: string[]): SendOptions | "help" | string {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        file: { type: "string" },
        stream: { type: "string" },
        format: { type: "string" },
        "batch-size": { type: "string" },
        concurrency: { type: "string" },
        "dry-run": { type: "boolean", default: false },
        "allow-changed": { type: "boolean", default: false },
        "in-flight": { type: "string" },
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
  if (values.stream === "") return "--stream must not be empty";
  const batchSize = integerOption("--batch-size", values["batch-size"], 1, MAX_MESSAGES_PER_BATCH);
  if (typeof batchSize === "string") return batchSize;
  const concurrency = integerOption("--concurrency", values.concurrency, 1, MAX_SEND_CONCURRENCY);
  if (typeof concurrency === "string") return concurrency;
  const format = fileFormat(values.file, values.format);
  if (!(["ndjson", "json", "csv"] as string[]).includes(format)) return format;
  const prefix = values["idempotency-key-prefix"];
  if (prefix !== undefined) {
    const checked = IdempotencyKeyPrefix.max(MAX_PREFIX_LENGTH, { error: `expected at most ${MAX_PREFIX_LENGTH} characters` }).safeParse(
      prefix,
    );
    if (!checked.success) return `--idempotency-key-prefix: ${checked.error.issues[0].message}`;
  }
  const inFlight = values["in-flight"];
  if (inFlight !== undefined && inFlight !== "sent" && inFlight !== "resend")
    return `--in-flight must be 'sent' or 'resend', not '${inFlight}'`;
  const sendId = values["send-id"];
  if (sendId !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(sendId)) return "--send-id: expected 1-64 letters, digits, '-' or '_'";
  if (values.resend && sendId !== undefined) return "--resend starts a new send; --send-id continues one: give one of them";
  if (values["state-dir"] === "") return "--state-dir must not be empty";
  return {
    file: values.file,
    stream: values.stream ?? "transactional",
    streamGiven: values.stream !== undefined,
    format: format as FileFormat,
    formatGiven: values.format !== undefined,
    batchSize: batchSize ?? MAX_MESSAGES_PER_BATCH,
    concurrency,
    dryRun: values["dry-run"],
    allowChanged: values["allow-changed"],
    inFlight,
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

/**
 * The command that finishes this send: the same file, stream, options and send id. Through
 * `npx` unless `messaging` on PATH is this very program (a local install has no `messaging`
 * on PATH).
 */
export function finishCommand(options: SendOptions, sendId: string, program: string): string {
  const args = [program, "send", "--file", options.file, "--stream", options.stream];
  if (options.formatGiven) args.push("--format", options.format);
  if (options.batchSize !== MAX_MESSAGES_PER_BATCH) args.push("--batch-size", String(options.batchSize));
  if (options.concurrency !== undefined) args.push("--concurrency", String(options.concurrency));
  if (sendId !== "") args.push("--send-id", sendId);
  if (options.stateDir !== undefined) args.push("--state-dir", options.stateDir);
  if (options.idempotencyKeyPrefix !== undefined) args.push("--idempotency-key-prefix", options.idempotencyKeyPrefix);
  return args.map((arg, i) => (i === 0 ? arg : shellQuote(arg))).join(" ");
}

/** Quotes an argument for a POSIX shell when it holds anything beyond safe characters. */
function shellQuote(argument: string): string {
  return /^[\w@%+=:,./-]+$/.test(argument) ? argument : `'${argument.replace(/'/g, `'\\''`)}'`;
}
