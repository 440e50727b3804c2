#!/usr/bin/env node
/**
 * `messaging` command line: dispatches to one file per command.
 *   messaging emulator [--port N] [--host H] [--api-key KEY] [--max-stored-messages N] [--max-stored-bytes N] [--delivery-retry-schedule 1,2,4]
 *   messaging send --file FILE [--stream NAME] [options]   (messaging send --help)
 *   messaging listen --forward-to URL [--events TYPE,…] [--format F] [--show-secret]
 *   messaging trigger <event-type> [--data JSON] [--previous JSON] [--wait] [--allow-unknown-type]
 *   messaging endpoints create|list|secret …
 */
import { didYouMean } from "./did-you-mean";
import { EXIT, exitCodesHelp } from "./exit-codes";

const COMMANDS = ["emulator", "listen", "trigger", "endpoints", "send", "help"];

const USAGE = `usage:
  messaging emulator [--port N] [--host H] [--api-key KEY] [--max-stored-messages N] [--max-stored-bytes N] [--delivery-retry-schedule 1,2,4]
  messaging listen --forward-to URL [--events TYPE,…] [--format basic|cloudEvents] [--show-secret]
  messaging trigger <event-type> [--data JSON] [--previous JSON] [--wait] [--allow-unknown-type]
  messaging endpoints create --url URL [--events TYPE,…] [--format F] [--description TEXT] [--show-secret] [--json]
  messaging endpoints list [--show-secret] [--json] | messaging endpoints secret <endpoint id>
  messaging send --file FILE [--stream NAME] [options]
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
    case "listen":
      return (await import("./listen-command")).runListenCommand(rest);
    case "endpoints":
      return (await import("./endpoints-command")).runEndpointsCommand(rest);
    case "-v":
    case "--version":
      process.stdout.write(`${(await import("../client/version")).PACKAGE_VERSION}\n`);
      return 0;
    case "-h":
    case "--help":
    case "help":
      if (command === "help" && rest[0] === "send") return (await import("./send-command")).runSendCommand(["--help"]);
      process.stdout.write(`${USAGE}\n\n${exitCodesHelp()}`);
      return EXIT.ok;
    default:
      process.stderr.write(`${command ? `unknown command '${command}'${didYouMean(command, COMMANDS)}` : "missing command"}\n${USAGE}\n`);
      return EXIT.usage;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`messaging: ${error instanceof Error ? error.message : String(error)}${hintFor(error)}\n`);
    process.exitCode = EXIT.failed;
  },
);

// What to do about the failures a user can fix without reading code.
function hintFor(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "EADDRINUSE") {
    return "\n  the port is taken (another emulator still running?): stop that process, or pick another port with --port (0: any free port)";
  }
  if (code === "EACCES")
    return "\n  not allowed to listen on that port (ports below 1024 need privileges): use --port 0 or a port above 1023";
  return "";
}
