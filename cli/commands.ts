import type { ParseArgsConfig } from "node:util";

/** Options as `node:util` `parseArgs` takes them. */
export type CommandOptions = NonNullable<ParseArgsConfig["options"]>;

/**
 * One `messaging` command as the registry describes it: pure data, so that a command's file
 * can read its own row (its options, its usage) without the registry ever loading that file.
 * The code is in `cli/<name>-command.ts` (or `cli/<name>/command.ts` for a command with a
 * folder of its own), which exports `run` and `help` ({@link CommandModule}); `main.ts` loads
 * it only when the command is run or asked for.
 */
export interface Command {
  /**
   * Its forms, each written here only, without the leading `messaging `; `--help`, the usage
   * list and the usage printed under a bad argument all show them.
   */
  readonly usage: readonly string[];
  /** What it does, in one line. */
  readonly summary: string;
  /** The options it accepts, as its file parses them. `--help` and `-h` are main's. */
  readonly options: CommandOptions;
  /** Its code is a folder, `cli/<name>/` (its entry `command.ts`), rather than one file. */
  readonly folder?: true;
}

/** What a command's file exports for `main.ts`. */
export interface CommandModule {
  /** Runs the command with the arguments after its name; resolves with the exit code. */
  run(argv: string[]): Promise<number>;
  /** Its `--help` text: usage, options, environment and exit codes. */
  help(): Promise<string>;
}

/**
 * The commands, one row each, in the order the usage list shows them. A new command is a
 * file `cli/<name>-command.ts` exporting `run` and `help`, plus a row here.
 */
export const COMMANDS = {
  emulator: {
    usage: [
      "emulator [--port N] [--host H] [--allowed-host NAME] [--api-key KEY] [--max-stored-messages N] [--max-stored-bytes N] [--delivery-retry-schedule 1,2,4]",
    ],
    summary: "runs a local emulator of the messaging service until Ctrl-C",
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "allowed-host": { type: "string", multiple: true },
      "api-key": { type: "string" },
      "max-stored-messages": { type: "string" },
      "max-stored-bytes": { type: "string" },
      "delivery-retry-schedule": { type: "string" },
    },
  },
  listen: {
    usage: ["listen --forward-to URL [--events TYPE,…] [--allow-unknown-type] [--format basic|cloudEvents] [--show-secret]"],
    summary: "forwards the emulator's webhook deliveries to your receiver and prints each attempt",
    options: {
      "forward-to": { type: "string" },
      events: { type: "string", multiple: true },
      "allow-unknown-type": { type: "boolean" },
      format: { type: "string" },
      "show-secret": { type: "boolean" },
    },
  },
  trigger: {
    usage: ["trigger <event-type> [--data JSON] [--previous JSON] [--wait] [--allow-unknown-type]"],
    summary: "emits a webhook event through a running emulator (MESSAGING_BASE_URL)",
    options: {
      data: { type: "string" },
      previous: { type: "string" },
      wait: { type: "boolean" },
      "no-wait": { type: "boolean" },
      "allow-unknown-type": { type: "boolean" },
    },
  },
  endpoints: {
    usage: [
      "endpoints create --url URL [--events TYPE,…] [--allow-unknown-type] [--format basic|cloudEvents] [--description TEXT] [--show-secret] [--json]",
      "endpoints list [--show-secret] [--json]",
      "endpoints secret <endpoint id>",
    ],
    summary: "creates webhook endpoints (service or emulator), lists the emulator's, prints a secret",
    // `create` takes them all; `list` and `secret` only --show-secret and --json.
    options: {
      url: { type: "string" },
      events: { type: "string", multiple: true },
      "allow-unknown-type": { type: "boolean" },
      format: { type: "string" },
      description: { type: "string" },
      "show-secret": { type: "boolean" },
      json: { type: "boolean" },
    },
  },
  events: {
    usage: ["events resend <event id> [--endpoint ID]"],
    summary: "delivers an event of the emulator again (after a receiver or its secret is fixed)",
    options: {
      endpoint: { type: "string" },
    },
  },
  send: {
    folder: true,
    usage: ["send --file FILE [--stream NAME] [options]"],
    summary: "sends every message of a file, each exactly once, however often it is run",
    options: {
      file: { type: "string" },
      stream: { type: "string" },
      format: { type: "string" },
      "batch-size": { type: "string" },
      concurrency: { type: "string" },
      "dry-run": { type: "boolean", default: false },
      "allow-changed": { type: "boolean", default: false },
      "in-flight": { type: "string" },
      resend: { type: "boolean", default: false },
      "send-id": { type: "string" },
      "state-dir": { type: "string" },
      "idempotency-key-prefix": { type: "string" },
      json: { type: "boolean", default: false },
    },
  },
} satisfies Record<string, Command>;

export type CommandName = keyof typeof COMMANDS;

/** A create field's flag: its name in kebab case (`--description`). */
export const flagOf = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * The create fields `endpoints create` reads itself (a required URL, events with a default
 * and a did-you-mean, a format checked against its values); every other create field is sent
 * as its `--<field> TEXT` says, and its help line is generated from the create schema.
 */
export const CREATE_FIELDS_WITH_OWN_FLAGS = ["url", "events", "format"] as const;

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
