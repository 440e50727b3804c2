/**
 * `--help` of the commands whose own file has none: options, environment variables and
 * exit codes, as `messaging <command> --help` and `messaging help <command>` print them.
 * (`messaging send --help` is in `send-command.ts`, beside its options.)
 */
export const EMULATOR_HELP = `messaging emulator — a local emulator of the messaging service

usage: messaging emulator [--port N] [--host H] [--api-key KEY]

Starts the emulator and prints one line holding its base URL once it listens; runs until
SIGINT (Ctrl-C) or SIGTERM. Its routes, statuses and inspection routes (/_emulator/…) are
described in emulator/README.md.

options:
  --port N        TCP port (default: 0, any free port: read it from the printed URL)
  --host H        interface to listen on (default: 127.0.0.1)
  --api-key KEY   the API key requests must present (default: sk_test_emulator, printed)
  -h, --help      this help

exit codes:
  0    stopped by SIGINT or SIGTERM
  2    bad arguments
`;

/** Help text by command, for the commands listed here. */
export const COMMAND_HELP: Readonly<Record<string, string>> = { emulator: EMULATOR_HELP };
