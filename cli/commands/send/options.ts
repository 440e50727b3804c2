import { MAX_SEND_CONCURRENCY } from "../../../client/send-messages";
import { IdempotencyKeyPrefix, MAX_IDEMPOTENCY_KEY_LENGTH } from "../../../schemas/idempotency-key";
import { MAX_MESSAGES_PER_BATCH } from "../../../schemas/types";
import { CALL_KEY_SUFFIX_LENGTH } from "../../../message-file/identity";
import { COMMANDS } from "..";
import { parseCommandArgs } from "../../command-args";
import { fileFormat, type FileFormat } from "../../../message-file";
import { messageLimitProblem, SETTINGS } from "../../../client/settings";

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
  /** The most messages this run may send (`--max-messages`, else MESSAGING_MAX_MESSAGES_PER_UPDATE); unset, no limit. */
  readonly maxMessages?: number;
  readonly json: boolean;
}

const MAX_PREFIX_LENGTH = MAX_IDEMPOTENCY_KEY_LENGTH - CALL_KEY_SUFFIX_LENGTH;

/** The options, or why the arguments are not usable. */
export function parseSendOptions(argv: string[]): SendOptions | string {
  const parsed = parseCommandArgs(argv, COMMANDS.send.options, false);
  if ("error" in parsed) {
    // `messaging send file.ndjson`: the file goes after --file.
    const positional = argv.find(
      (arg, i) => !arg.startsWith("-") && (i === 0 || !argv[i - 1].startsWith("--") || argv[i - 1].includes("=")),
    );
    if (
      parsed.error.startsWith("Unexpected argument") &&
      positional !== undefined &&
      argv.every((arg) => arg !== "--file" && !arg.startsWith("--file="))
    )
      return `unexpected argument '${positional}': give the file with --file: messaging send --file ${positional}`;
    return parsed.error;
  }
  const { values } = parsed;
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
  const limit = values["max-messages"] ?? (process.env[SETTINGS.maxMessagesPerUpdate.env] || undefined);
  const limitProblem = limit === undefined ? undefined : messageLimitProblem(limit);
  if (limitProblem !== undefined)
    return `${values["max-messages"] !== undefined ? "--max-messages" : SETTINGS.maxMessagesPerUpdate.env}: ${limitProblem}`;
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
    maxMessages: limit === undefined ? undefined : Number(limit),
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
