import { readSetting, SETTINGS } from "../client/settings";
import { DEFAULT_EMULATOR_API_KEY } from "../emulator/http";
import { EmulatorClient } from "../emulator/operations";
import type { CommandIo } from "./command-io";
import { usageError, type CommandName } from "./commands";
import { EXIT } from "./exit-codes";
import { isApiError, type ApiError } from "../errors/messaging-error";
import { describeFieldErrors } from "../schemas";

/** Where the CLI's emulator commands (`trigger`, `listen`, `endpoints list`) send their requests. */
export interface EmulatorTarget {
  /** Without a trailing slash. */
  readonly baseUrl: string;
  readonly apiKey: string;
}

/**
 * `MESSAGING_BASE_URL` (required) and `MESSAGING_API_KEY` (default: the emulator's public
 * key), or a sentence naming the one variable that is wrong. A bad URL is shown: it is not a
 * secret; the key never is.
 */
export function emulatorTarget(
  env: NodeJS.ProcessEnv,
  what = "the emulator's URL (printed by `messaging emulator`)",
): EmulatorTarget | string {
  const raw = readSetting("baseUrl", { env });
  if (raw === undefined) return `${SETTINGS.baseUrl.env} is not set: set it to ${what}`;
  const baseUrl = raw.replace(/\/+$/, "");
  let parsed: URL | undefined;
  try {
    parsed = new URL(baseUrl);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || !/^https?:$/.test(parsed.protocol)) {
    return `${SETTINGS.baseUrl.env} is '${raw}', which is not an http(s) URL: set it to ${what}, e.g. http://127.0.0.1:4010`;
  }
  return { baseUrl, apiKey: readSetting("apiKey", { env }) ?? DEFAULT_EMULATOR_API_KEY };
}

/** What a refusal says: the problem's detail and field errors, with a hint for a wrong key. */
export function describeRefusal(error: ApiError): string {
  const detail = error.problem
    ? [error.problem.detail ?? error.problem.title, describeFieldErrors(error.problem.errors ?? {}, { indent: "  " })]
        .filter(Boolean)
        .join("\n")
    : "";
  const hint = error.status === 401 ? ` (set ${SETTINGS.apiKey.env} to the key the emulator was started with)` : "";
  return `HTTP ${error.status}: ${detail}${hint}`;
}

/**
 * The call's value, or the emulator's refusal (a non-2xx answer) as a value for the command
 * to report; anything else (unreachable, an answer that is not the emulator's) still rejects.
 */
export async function orRefusal<T>(call: Promise<T>): Promise<T | ApiError> {
  return call.catch((error: unknown) => (isApiError(error) ? error : Promise.reject(error)));
}

/**
 * Runs a command that talks to the running emulator with its parsed arguments and a client, closed after. Usage exit code
 * once a bad argument (`args` is then its message) or the wrong setting is said; 1 when the emulator could not be reached.
 */
export async function withEmulator<A>(
  command: CommandName,
  args: A | string,
  env: NodeJS.ProcessEnv,
  io: CommandIo,
  run: (args: A, emulator: EmulatorClient) => Promise<number>,
): Promise<number> {
  if (typeof args === "string") {
    io.stderr(usageError(command, args));
    return EXIT.usage;
  }
  const target = emulatorTarget(env);
  if (typeof target === "string") {
    io.stderr(`messaging ${command}: ${target}\n`);
    return EXIT.usage;
  }
  const emulator = new EmulatorClient(target);
  try {
    return await run(args, emulator);
  } catch (error) {
    io.stderr(
      `messaging ${command}: could not reach the emulator at ${emulator.baseUrl}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return EXIT.failed;
  } finally {
    await emulator.close();
  }
}
