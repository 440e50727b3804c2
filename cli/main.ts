#!/usr/bin/env node
/**
 * `messaging` command line: dispatches to one file per command.
 *   messaging emulator [--port N] [--host H] [--api-key KEY]
 *   messaging send --file FILE [--stream transactional] [--dry-run] [--idempotency-key-prefix KEY]
 */
const USAGE = `usage:
  messaging emulator [--port N] [--host H] [--api-key KEY]
  messaging send --file FILE [--stream transactional] [--dry-run] [--idempotency-key-prefix KEY]`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "emulator":
      return (await import("./emulator-command")).runEmulatorCommand(rest);
    case "send":
      return (await import("./send-command")).runSendCommand(rest);
    case "-h":
    case "--help":
    case "help":
      process.stdout.write(`${USAGE}\n`);
      return 0;
    default:
      process.stderr.write(`${command ? `unknown command '${command}'` : "missing command"}\n${USAGE}\n`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`messaging: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
