import type { Command } from "./command";
import { definition as emulator } from "./emulator/definition";
import { definition as listen } from "./listen/definition";
import { definition as trigger } from "./trigger/definition";
import { definition as endpoints } from "./endpoints/definition";
import { definition as events } from "./events/definition";
import { definition as send } from "./send/definition";

export type { Command, CommandModule, CommandOptions } from "./command";

/**
 * The commands, in the order the usage list shows them, each row its folder's
 * `definition.ts`. A new command is a folder `cli/commands/<name>/` (`definition.ts`,
 * `help.ts`, `command.ts` exporting `run` and `help`), plus its name here.
 */
export const COMMANDS = { emulator, listen, trigger, endpoints, events, send } satisfies Record<string, Command>;

export type CommandName = keyof typeof COMMANDS;

/** The command of that name, or undefined. */
export function commandNamed(name: string): Command | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name as CommandName] : undefined;
}

/** Usage lines are wrapped, before an `[option]`, to this width. */
const WIDTH = 100;

/**
 * A command's forms after `lead` (e.g. `"usage: "`), one a line, each wrapped before an
 * `[option]`, its continuation under the form's first option or argument.
 */
export function usageLines(name: CommandName, lead = "usage: "): string {
  return COMMANDS[name].usage
    .map((form, i) => {
      const start = `${i === 0 ? lead : " ".repeat(lead.length)}messaging `;
      const [first, ...parts] = form.split(/ (?=\[)/);
      const indent = " ".repeat(start.length + Math.max(0, form.search(/ [-<[]/) + 1));
      const lines = [`${start}${first}`];
      for (const part of parts) {
        if (lines[lines.length - 1].length + 1 + part.length > WIDTH) lines.push(`${indent}${part}`);
        else lines[lines.length - 1] += ` ${part}`;
      }
      return lines.join("\n");
    })
    .join("\n");
}

/** What a command prints on stderr, before exiting 2, when its arguments are not usable. */
export function usageError(name: CommandName, why: string): string {
  return `messaging ${name}: ${why}\n${usageLines(name)}\n  ${COMMANDS[name].summary}\n  (messaging ${name} --help for all)\n`;
}

/** `messaging --help`'s list: every command's forms, then help and version. */
export function usageList(): string {
  const forms = (Object.keys(COMMANDS) as CommandName[]).map((name) => usageLines(name, "  "));
  return [
    "usage:",
    ...forms,
    "  messaging <command> --help     options, environment variables, formats and exit codes",
    "  messaging --version",
  ].join("\n");
}
