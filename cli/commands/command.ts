import type { ParseArgsConfig } from "node:util";

/** Options as `node:util` `parseArgs` takes them. */
export type CommandOptions = NonNullable<ParseArgsConfig["options"]>;

/** Options that take a value (`--name VALUE`), by name. */
export function valueOptions<const Name extends string>(...names: Name[]): Record<Name, { type: "string" }> {
  return Object.fromEntries(names.map((name) => [name, { type: "string" }])) as Record<Name, { type: "string" }>;
}

/** Options that are on when given (`--name`), and off otherwise. */
export function switchOptions<const Name extends string>(...names: Name[]): Record<Name, { type: "boolean"; default: false }> {
  return Object.fromEntries(names.map((name) => [name, { type: "boolean", default: false }])) as Record<
    Name,
    { type: "boolean"; default: false }
  >;
}

/**
 * One `messaging` command as the registry describes it: pure data, so that a command's file
 * can read its own row (its options, its usage) without the registry ever loading that file.
 * The code is in `cli/commands/<name>/command.ts`, which exports `run` and `help`
 * ({@link CommandModule}); `main.ts` loads it only when the command is run or asked for.
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
}

/** What a command's file exports for `main.ts`. */
export interface CommandModule {
  /** Runs the command with the arguments after its name; resolves with the exit code. */
  run(argv: string[]): Promise<number>;
  /** Its `--help` text: usage, options, environment and exit codes. */
  help(): Promise<string>;
}
