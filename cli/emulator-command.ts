import { parseArgs } from "node:util";
import { DEFAULT_EMULATOR_API_KEY, startEmulator } from "../emulator";

const USAGE = "usage: messaging emulator [--port N] [--host H] [--api-key KEY]";

/** Parsed `messaging emulator` options. */
interface EmulatorCommandOptions {
  readonly port: number;
  readonly host?: string;
  readonly apiKey?: string;
}

function parse(argv: string[]): EmulatorCommandOptions | string {
  let values: { port?: string; host?: string; "api-key"?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        "api-key": { type: "string" },
      },
    }));
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const portText = values.port ?? "0";
  const port = /^\d+$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 0 && port <= 65535)) return `--port must be an integer from 0 to 65535, got '${portText}'`;
  if (values.host === "") return "--host must not be empty";
  if (values["api-key"] === "") return "--api-key must not be empty";
  return { port, host: values.host, apiKey: values["api-key"] };
}

/**
 * `messaging emulator [--port N] [--host H] [--api-key KEY]`: starts the emulator, prints one
 * line holding its base URL once it listens, and runs until SIGINT or SIGTERM.
 *
 * The default key `sk_test_emulator` is printed (it is public, so newcomers can curl right
 * away); a key given with `--api-key` is not, since it may be one the user keeps secret.
 * @returns the exit code: 0 after a signal, 2 for bad arguments.
 */
export async function runEmulatorCommand(argv: string[]): Promise<number> {
  const options = parse(argv);
  if (typeof options === "string") {
    process.stderr.write(`messaging emulator: ${options}\n${USAGE}\n`);
    return 2;
  }
  const emulator = await startEmulator(options);
  const keyNote = options.apiKey === undefined ? DEFAULT_EMULATOR_API_KEY : "the one given with --api-key";
  process.stdout.write(`messaging emulator listening on ${emulator.url} (api key: ${keyNote})\n`);

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  await emulator.close();
  process.stderr.write("messaging emulator stopped\n");
  return 0;
}
