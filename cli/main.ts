#!/usr/bin/env node
/**
 * `messaging` command line: dispatches to one file per command.
 *   messaging emulator [--port N] [--host H] [--api-key KEY] [--max-stored-messages N] [--delivery-retry-schedule 1,2,4]
 *   messaging send --file FILE [--stream NAME] [options]   (messaging send --help)
 *   messaging trigger <event-type> [--data JSON] [--previous JSON] [--no-wait]
 */
const USAGE = `usage:
  messaging emulator [--port N] [--host H] [--api-key KEY] [--max-stored-messages N] [--delivery-retry-schedule 1,2,4]
  messaging send --file FILE [--stream NAME] [options]
  messaging trigger <event-type> [--data JSON] [--previous JSON] [--no-wait]
  messaging <command> --help     options, environment variables, formats and exit codes
  messaging --version`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const helpOf = command === "help" ? rest[0] : rest.includes("--help") || rest.includes("-h") ? command : undefined;
  if (helpOf !== undefined) {
    // Loaded only when asked for: the help texts read the emulator's defaults.
    const { COMMAND_HELP } = await import("./command-help");
    if (Object.hasOwn(COMMAND_HELP, helpOf)) {
      process.stdout.write(COMMAND_HELP[helpOf]);
      return 0;
    }
  }
  switch (command) {
    case "emulator":
      return (await import("./emulator-command")).runEmulatorCommand(rest);
    case "send":
      return (await import("./send-command")).runSendCommand(rest);
    case "trigger":
      return (await import("./trigger-command")).runTriggerCommand(rest);
    case "-v":
    case "--version":
      process.stdout.write(`${(await import("../client/version")).PACKAGE_VERSION}\n`);
      return 0;
    case "-h":
    case "--help":
    case "help":
      if (command === "help" && rest[0] === "send") return (await import("./send-command")).runSendCommand(["--help"]);
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
