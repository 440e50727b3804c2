import { randomBytes } from "node:crypto";
import * as path from "node:path";
import { boundHeapGrowth } from "../../../client/sending-memory";
import { IDENTITY_KEY, IdentityKey } from "../../../client/identity-key";
import type { MessagingClient } from "../../../client/messaging-client";
import { clientFromSettings, readSetting, SETTINGS } from "../../../client/settings";
import { DEFAULT_EMULATOR_API_KEY } from "../../../emulator/http";
import { isConfigurationError } from "../../../errors/messaging-error";
import { usageError } from "..";
import { EXIT } from "../../exit-codes";
import { FileError, streamForFile } from "../../../message-file";
import { messageIdentity } from "../../../message-file/identity";
import { programName } from "../../program-name";
import { finishCommand, parseSendOptions, type SendOptions } from "./options";
import { defaultStateDir, JournalError, SendJournal } from "./journal";
import { SendReport } from "./report";
import { sendWith } from "./run";
import { SignalWatch } from "./signals";

/** The prefix of call keys when `--idempotency-key-prefix` is not given: `ms3`, keys keyed (`k3`). */
const DEFAULT_KEY_PREFIX = "ms3";

/**
 * `messaging send --file FILE [...]` (see `HELP` in `help.ts`): plans the run
 * against the file's journal, finishes any call left in flight, then sends what is not sent yet.
 * @returns the exit code (see `help.ts`)
 */
export async function runSendCommand(argv: string[]): Promise<number> {
  const options = parseSendOptions(argv);
  if (typeof options === "string") {
    process.stderr.write(usageError("send", options));
    return EXIT.usage;
  }
  const signals = new SignalWatch();
  try {
    return await send(options, signals);
  } finally {
    signals.dispose();
  }
}

async function send(parsed: SendOptions, signals: SignalWatch): Promise<number> {
  let options: SendOptions;
  try {
    options = { ...parsed, stream: await streamForFile(parsed.file, parsed.format, parsed.streamGiven ? parsed.stream : undefined) };
  } catch (error) {
    if (!(error instanceof FileError)) throw error;
    return new SendReport(parsed.json, { file: parsed.file, stream: parsed.stream }).end(
      { status: "invalid", error: error.message },
      `messaging send: ${parsed.file}: ${error.message}\nnothing was sent\n`,
      1,
    );
  }
  const sendId = options.sendId ?? (options.resend ? randomBytes(6).toString("hex") : "");
  const finish = finishCommand(options, sendId, programName());
  const keyPrefix = options.idempotencyKeyPrefix ?? DEFAULT_KEY_PREFIX;
  const report = new SendReport(options.json, { file: options.file, stream: options.stream, sendId: sendId || undefined, keyPrefix });

  // The service: needed to send, and to find the journal (one per file, service and stream).
  let client: MessagingClient | undefined;
  try {
    if (!options.dryRun) client = clientFromSettings();
  } catch (error) {
    if (!isConfigurationError(error)) throw error;
    // send, unlike the emulator commands, has no default key (it sends to the real service
    // too), but the emulator's default key is what a newcomer trying it locally needs.
    const message =
      readSetting("apiKey") === undefined
        ? `${error.message} Against the emulator, its default key: export ${SETTINGS.apiKey.env}=${DEFAULT_EMULATOR_API_KEY} (the key messaging emulator prints, unless started with another).`
        : error.message;
    return report.end(
      { status: "failed", error: { code: error.code, message, retryable: false } },
      `messaging send: ${message}\nnothing was sent\n`,
      EXIT.usage, // a setting missing: the same code as every command's (cli/exit-codes.ts)
    );
  }
  try {
    const baseUrl = readSetting("baseUrl")?.replace(/\/+$/, "");
    const stateDir = options.stateDir ?? defaultStateDir();
    const scope = baseUrl === undefined ? undefined : { file: path.resolve(options.file), baseUrl, stream: options.stream, sendId };
    const journalExists = scope !== undefined && SendJournal.exists(stateDir, scope);
    const key = identityKey(client, journalExists);
    let journal: SendJournal | undefined;
    try {
      if (key === undefined) {
        throw new JournalError(
          `a dry run of a send with a journal needs the API key it was sent with (${SETTINGS.apiKey.env}): the journal's records are keyed by it`,
        );
      }
      if (scope && (!options.dryRun || journalExists)) journal = SendJournal.open(stateDir, scope, key);
    } catch (error) {
      if (error instanceof JournalError) {
        return report.end(
          { status: "failed", error: { code: "journal", message: error.message } },
          `messaging send: ${error.message}\nnothing was sent\n`,
          1,
        );
      }
      report.note(
        `messaging send: warning: cannot keep a journal in ${stateDir} (${(error as Error).message}); sending anyway. Without it a run ` +
          "cannot tell which lines an earlier run sent: run again only with the file unchanged (its calls then get the same keys)\n",
      );
    }
    // Only now that it can send: a refusal above is the whole story ("nothing was sent").
    if (options.resend) report.note(`resend: send id ${sendId}. If this run stops before the end, finish it with\n  ${finish}\n`);
    try {
      const messageId = journal?.messageId ?? messageIdentity("m2", key!);
      return await sendWith({ options, signals, report, finish, keyPrefix, sendId, client, journal, key: key!, messageId });
    } finally {
      journal?.close();
    }
  } finally {
    await client?.close();
  }
}

/**
 * What message ids and call keys are keyed by: the client's, from the API key. A dry run reads
 * the key without a client; lacking one, it plans under a throwaway key (its calls are not
 * sent), unless it must read a journal (undefined).
 */
function identityKey(client: MessagingClient | undefined, journalExists: boolean): IdentityKey | undefined {
  if (client) return client[IDENTITY_KEY];
  const apiKey = readSetting("apiKey");
  if (apiKey !== undefined) return IdentityKey.fromApiKey(apiKey);
  return journalExists ? undefined : IdentityKey.fromApiKey(randomBytes(32).toString("hex"));
}

/** The registry's entry points (`CommandModule`). */
export const run = (argv: string[]): Promise<number> => {
  // For `send` only: the emulator, a server, keeps V8's pacing.
  boundHeapGrowth();
  return runSendCommand(argv);
};
export const help = async (): Promise<string> => (await import("./help")).HELP;
