import { SETTINGS, readSetting } from "../../../client/settings";
import {
  isApiError,
  isAuthenticationError,
  isConnectionError,
  isInvalidRequestError,
  isMessagingError,
  isNotFoundError,
  isPartialSendError,
  isPermissionError,
} from "../../../errors/messaging-error";
import { FileChanged } from "./plan";
import type { SentElsewhere } from "./journal";
import { Interrupted } from "./signals";

/** The outcome printed with `--json`. */
export type Outcome = Record<string, unknown> & { status: string };

/** Writes a run's outcome: text for people, or one JSON object on stdout with `--json`. */
export class SendReport {
  readonly #started = Date.now();

  constructor(
    private readonly json: boolean,
    private readonly common: Record<string, unknown>,
  ) {}

  /** Seconds since the run started. */
  get seconds(): number {
    return (Date.now() - this.#started) / 1000;
  }

  /** A line for people on stderr, whatever the output mode (progress, notices). */
  note(text: string): void {
    process.stderr.write(text);
  }

  /**
   * The run's last word, returning `code`. Text goes to stdout on success and stderr
   * otherwise; with `--json` the object goes to stdout and a failure's text still to stderr.
   */
  end(outcome: Outcome, text: string, code: number): number {
    if (this.json) {
      process.stdout.write(`${JSON.stringify({ ...outcome, ...this.common, durationMs: Math.round(this.seconds * 1000) })}\n`);
    }
    if (!this.json || code !== 0) (code === 0 ? process.stdout : process.stderr).write(text);
    return code;
  }
}

/** Lines naming where sent messages were, at most `limit` of them. */
export function listSent(where: SentElsewhere[], limit = 20): string {
  const lines = where.slice(0, limit).map((place) => `  ${place.location} (sent ${place.sentAt})`);
  if (where.length > limit) lines.push(`  … and ${where.length - limit} more`);
  return lines.join("\n");
}

/** A failure that running the same command again cannot fix, with what to fix; undefined for others. */
function whatToFix(cause: unknown): string | undefined {
  if (isAuthenticationError(cause)) return `the service did not accept the API key: set ${SETTINGS.apiKey.env} to a valid key`;
  if (isPermissionError(cause)) return "the API key may not send on this stream: use a key that may, or another --stream";
  if (isApiError(cause) && cause.status === 413) return "the service found a call too large: lower --batch-size";
  if (isInvalidRequestError(cause)) return "the service rejected the messages (see above): correct the file";
  // The route is the service's own: a 404 means the base URL points elsewhere than its root.
  if (isNotFoundError(cause))
    return `the service has no such route at this base URL: set ${SETTINGS.baseUrl.env} to the service's root URL (without /v1; for the emulator, the URL messaging emulator prints)`;
  return undefined;
}

/** For a connection that failed before reaching the service: the setting to check, with its value. */
function whatToCheck(cause: unknown): string | undefined {
  if (!isConnectionError(cause) || cause.kind === "other") return undefined;
  const baseUrl = readSetting("baseUrl") ?? "unset";
  const where = `${SETTINGS.baseUrl.env} (${baseUrl})`;
  switch (cause.kind) {
    case "refused":
      return `nothing accepts connections at ${where}: check it, and that the service is running; for local development start the emulator (npx -p pulumi-messaging messaging emulator) and set ${SETTINGS.baseUrl.env} to the URL it prints`;
    case "name_not_resolved":
      return `the host name of ${where} does not resolve: check it`;
    case "tls_to_plain_http":
      return `the server at ${where} answers plain HTTP, not TLS: set ${SETTINGS.baseUrl.env}=${baseUrl.replace(/^https:/i, "http:")}`;
  }
}

/** What a failed run says: why it stopped, what is sent, and how to go on. */
export function reportFailure(
  report: SendReport,
  failure: unknown,
  counts: Record<string, unknown> & { sentMessages: number; total: number },
  finish: string,
): number {
  const cause = isPartialSendError(failure) ? failure.cause : failure;
  const { total, ...outcome } = counts;
  const sentLine = `${counts.sentMessages} of ${total} message(s) of the file are sent`;
  if (cause instanceof Interrupted) {
    return report.end(
      { ...outcome, status: "interrupted", signal: cause.signalName, finishCommand: finish },
      `\nmessaging send: ${cause.message}: ${sentLine}. Nothing was sent twice and nothing is lost: finish with\n  ${finish}\n`,
      cause.exitCode,
    );
  }
  if (cause instanceof FileChanged) {
    return report.end(
      { ...outcome, status: "failed", error: { code: "file_changed", message: cause.message, retryable: true }, finishCommand: finish },
      `messaging send: ${cause.message}; nothing more was sent (${sentLine}).\n` +
        `Run the command again when the file is as you want it: messages already sent are not sent again.\n  ${finish}\n`,
      1,
    );
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  const code = isMessagingError(cause) ? cause.code : "error";
  const fix = whatToFix(cause);
  if (fix !== undefined) {
    return report.end(
      { ...outcome, status: "failed", error: { code, status: isApiError(cause) ? cause.status : undefined, message, retryable: false } },
      `messaging send: ${message}\n${sentLine}. Fix: ${fix}; then run the command again.\n`,
      1,
    );
  }
  const check = whatToCheck(cause);
  if (check !== undefined) {
    // The first line of the client's message: its advice speaks of "the base URL", this names the variable.
    const first = message.split("\n")[0];
    return report.end(
      { ...outcome, status: "failed", error: { code, message: first, retryable: true, check }, finishCommand: finish },
      `messaging send: ${first}\nCheck: ${check}.\n${sentLine}. Then run the same command again to send the rest (nothing is sent twice):\n  ${finish}\n`,
      1,
    );
  }
  return report.end(
    { ...outcome, status: "failed", error: { code, message, retryable: true }, finishCommand: finish },
    `messaging send: ${message}\n${sentLine}. Run the same command again to send the rest (nothing is sent twice):\n  ${finish}\n`,
    1,
  );
}
