import { parseArgs, type ParseArgsConfig } from "node:util";
import { didYouMean } from "../schemas/did-you-mean";

/** What `parseArgs` found, or why the arguments are not usable (a sentence for stderr). */
export type ParsedArgs<Values> = { readonly values: Values; readonly positionals: string[] } | { readonly error: string };

/**
 * `node:util` `parseArgs` (strict), with errors a user can act on: an unknown option gets a
 * "did you mean" among the command's options, and Node's advice about `--` is left out.
 */
export function parseCommandArgs<Options extends NonNullable<ParseArgsConfig["options"]>>(
  argv: string[],
  options: Options,
  allowPositionals: boolean,
): ParsedArgs<ReturnType<typeof parseArgs<{ options: Options; allowPositionals: boolean; strict: true }>>["values"]> {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals, strict: true });
    return { values, positionals };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      const given = /'([^']+)'/.exec(message)?.[1] ?? "";
      const name = given.split("=")[0];
      const known = Object.keys(options).map((option) => `--${option}`);
      // A short option (`-f`) is too short for an edit distance: the long options of that letter.
      const short = /^-([a-z])$/i.exec(name);
      if (short) {
        const matches = known.filter((option) => option[2] === short[1].toLowerCase());
        if (matches.length > 0) return { error: `unknown option ${name} (did you mean ${matches.join(" or ")}?)` };
      }
      return { error: `unknown option ${name}${didYouMean(name, known)}` };
    }
    return { error: message.replace(/\. To specify a positional argument.*$/s, "") };
  }
}
