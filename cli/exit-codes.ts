/**
 * The exit codes of every `messaging` command, in one table: each command's `--help` and the
 * README print it from here, and each command returns these constants.
 */
export const EXIT = {
  /** Done: what was asked happened. */
  ok: 0,
  /** Not done: the service or emulator refused or could not be reached, a delivery failed, a file is invalid. */
  failed: 1,
  /** Bad arguments, or a setting missing or invalid (nothing was attempted). */
  usage: 2,
  /** `messaging send` interrupted by SIGINT (Ctrl-C); the command to finish is printed. */
  interrupted: 130,
  /** `messaging send` interrupted by SIGTERM; likewise. */
  terminated: 143,
} as const;

/** One exit code of the table. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The table's rows: the code and what it means, the same for every command. */
export const EXIT_CODE_TABLE: ReadonlyArray<{ readonly code: ExitCode; readonly meaning: string }> = [
  { code: EXIT.ok, meaning: "done (emulator and listen: stopped by Ctrl-C or SIGTERM)" },
  {
    code: EXIT.failed,
    meaning:
      "not done: the service or emulator refused or could not be reached, a delivery failed or is still to be retried, a file is invalid",
  },
  {
    code: EXIT.usage,
    meaning: "bad arguments, or a setting missing or invalid (MESSAGING_BASE_URL, MESSAGING_API_KEY): nothing was tried",
  },
  { code: EXIT.interrupted, meaning: "send: interrupted by SIGINT (Ctrl-C); the command that finishes it is printed" },
  { code: EXIT.terminated, meaning: "send: interrupted by SIGTERM; likewise" },
];

const WIDTH = 86;

// Wraps `text` at word boundaries to lines of at most `width` characters.
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** The table as `--help` prints it, under an `exit codes:` heading. */
export function exitCodesHelp(): string {
  const rows = EXIT_CODE_TABLE.map(({ code, meaning }) =>
    wrap(meaning, WIDTH - 7)
      .map((line, index) => `  ${index === 0 ? String(code).padEnd(4) : "    "} ${line}`)
      .join("\n"),
  );
  return `exit codes:\n${rows.join("\n")}\n`;
}
