#!/usr/bin/env node
/**
 * `messaging` command line: lists, explains and runs the commands of the registry
 * (`commands/index.ts`), each loaded only when it is run or asked for.
 */
import { baselineWebAssembly } from "../client/sending-memory";
import type { CommandModule } from "./commands";
import { didYouMean } from "../schemas/did-you-mean";
import { EXIT, exitCodesHelp } from "./exit-codes";

// Before any command loads undici.
baselineWebAssembly();

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === "-v" || first === "--version") {
    process.stdout.write(`${(await import("../client/version")).PACKAGE_VERSION}\n`);
    return EXIT.ok;
  }
  // After `--version`: the registry's definitions derive flags from the zod schemas, and loading zod is most of its start.
  const { commandNamed, COMMANDS, usageList } = await import("./commands");
  if (first === "-h" || first === "--help" || (first === "help" && rest.length === 0)) {
    process.stdout.write(`${usageList()}\n\n${exitCodesHelp()}`);
    return EXIT.ok;
  }
  // `messaging help <command>` is `messaging <command> --help`.
  const name = first === "help" ? rest[0] : first;
  const command = name === undefined ? undefined : commandNamed(name);
  if (command === undefined) {
    const known = [...Object.keys(COMMANDS), "help"];
    process.stderr.write(`${name ? `unknown command '${name}'${didYouMean(name, known)}` : "missing command"}\n${usageList()}\n`);
    return EXIT.usage;
  }
  // By name, so the registry never imports a command's file (which imports the registry).
  const code: CommandModule = await import(`./commands/${name}/command`);
  if (first === "help" || rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(await code.help());
    return EXIT.ok;
  }
  return code.run(rest);
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
