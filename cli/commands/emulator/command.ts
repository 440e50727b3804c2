import { once } from "node:events";
import { readSetting, SETTINGS } from "../../../client/settings";
import {
  DEFAULT_EMULATOR_API_KEY,
  DEFAULT_MAX_STORED_BYTES,
  DEFAULT_MAX_STORED_MESSAGES,
  parseRetrySchedule,
  startEmulator,
  type EmulatorOptions,
} from "../../../emulator";
import { isHostName } from "../../../emulator/http";
import { COMMANDS, usageError } from "..";
import { parseCommandArgs } from "../../command-args";

/** Where the key came from, for the ready line (the key itself is printed only when it is the public default). */
type KeySource = "default" | "--api-key" | "environment";

function parse(argv: string[], env: NodeJS.ProcessEnv): { options: EmulatorOptions; keySource: KeySource } | string {
  const parsed = parseCommandArgs(argv, COMMANDS.emulator.options, false);
  if ("error" in parsed) return parsed.error;
  const { values } = parsed;
  const portText = values.port ?? "0";
  const port = /^\d+$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 0 && port <= 65535)) return `--port must be an integer from 0 to 65535, got '${portText}'`;
  if (values.host === "") return "--host must not be empty";
  if (values["api-key"] === "") return "--api-key must not be empty";
  const allowedHosts = values["allowed-host"] ?? [];
  const badHost = allowedHosts.find((name) => !isHostName(name));
  if (badHost !== undefined) return `--allowed-host takes a host name without scheme or port (or '*' for any), got '${badHost}'`;

  const maxText = values["max-stored-messages"] ?? String(DEFAULT_MAX_STORED_MESSAGES);
  const maxStoredMessages = /^\d{1,15}$/.test(maxText) ? Number(maxText) : NaN;
  if (!Number.isSafeInteger(maxStoredMessages)) return `--max-stored-messages must be a whole number (0 keeps none), got '${maxText}'`;

  const bytesText = values["max-stored-bytes"] ?? String(DEFAULT_MAX_STORED_BYTES);
  const maxStoredBytes = byteSize(bytesText);
  if (maxStoredBytes === undefined)
    return `--max-stored-bytes must be a whole number of bytes, optionally with KiB, MiB or GiB (e.g. 64MiB), got '${bytesText}'`;

  const schedule = values["delivery-retry-schedule"] === undefined ? undefined : parseRetrySchedule(values["delivery-retry-schedule"]);
  if (typeof schedule === "string") return `--delivery-retry-schedule: ${schedule}`;

  const envKey = readSetting("apiKey", { env });
  const apiKey = values["api-key"] ?? envKey;
  const keySource: KeySource = values["api-key"] !== undefined ? "--api-key" : envKey !== undefined ? "environment" : "default";
  return {
    options: {
      port,
      host: values.host,
      allowedHosts,
      apiKey,
      maxStoredMessages,
      maxStoredBytes,
      ...(schedule !== undefined ? { deliveryRetrySchedule: schedule } : {}),
    },
    keySource,
  };
}

const UNITS: Readonly<Record<string, number>> = { "": 1, b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

/** `1048576`, `64MiB`, `1 GiB` as bytes; undefined when it is not a whole number of bytes. */
function byteSize(text: string): number | undefined {
  const match = /^(\d{1,15})\s*([a-z]*)$/i.exec(text.trim());
  const unit = match === null ? undefined : UNITS[match[2].toLowerCase()];
  if (match === null || unit === undefined) return undefined;
  const bytes = Number(match[1]) * unit;
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

/**
 * `messaging emulator` (options: `definition.ts`). The key comes from `--api-key`, else `MESSAGING_API_KEY` (not visible to `ps`), else the
 * public default `sk_test_emulator`, which alone is printed (so newcomers can curl right away).
 * @returns the exit code: 0 after a signal, 2 for bad arguments.
 */
export async function runEmulatorCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const parsed = parse(argv, env);
  if (typeof parsed === "string") {
    process.stderr.write(usageError("emulator", parsed));
    return 2;
  }
  const emulator = await startEmulator(parsed.options);
  const keyNote =
    parsed.keySource === "default"
      ? DEFAULT_EMULATOR_API_KEY
      : parsed.keySource === "--api-key"
        ? "the one given with --api-key"
        : `from ${SETTINGS.apiKey.env}`;
  process.stdout.write(`messaging emulator listening on ${emulator.url} (api key: ${keyNote})\n`);
  process.stdout.write(`inspector: ${emulator.url}/_emulator/ (user name: the api key, no password)\n`);

  // Until the first of Ctrl-C and a termination signal; then neither is listened for.
  const signalled = new AbortController();
  await Promise.race(["SIGINT", "SIGTERM"].map((signal) => once(process, signal, { signal: signalled.signal })));
  signalled.abort();
  await emulator.close();
  process.stderr.write("messaging emulator stopped\n");
  return 0;
}

/** The registry's entry points (`CommandModule`). */
export const run = (argv: string[]): Promise<number> => runEmulatorCommand(argv);
export const help = async (): Promise<string> => (await import("./help")).HELP;
