import { SingleBar } from "cli-progress";

/** How often a line is printed when stderr is not a terminal, in ms. */
export const PLAIN_PROGRESS_EVERY_MS = 2000;

/** What a progress display is told. */
export interface ProgressDisplay {
  /** Messages confirmed so far (chunks skipped from the journal included). */
  update(sent: number): void;
  /** A chunk's request is being retried after `reason`, waiting `delayMs`. */
  retry(reason: string, delayMs: number): void;
  /** The send is over (whatever the outcome): the bar is finished, the last line printed. */
  stop(): void;
}

/**
 * Progress of a send on stderr: on a terminal, a bar (cli-progress) with messages per
 * second, ETA and retry activity; otherwise a plain line every
 * {@link PLAIN_PROGRESS_EVERY_MS} ms and one at the end, for CI logs.
 * @param total messages in the file
 * @param already messages confirmed before this run (from the journal), not counted in the rate
 */
export function createProgress(total: number, already: number, stream: NodeJS.WriteStream = process.stderr): ProgressDisplay {
  return stream.isTTY === true ? new TerminalProgress(total, already, stream) : new PlainProgress(total, already, stream);
}

function rate(sentNow: number, startedAt: number): number {
  const seconds = (Date.now() - startedAt) / 1000;
  return seconds > 0 ? sentNow / seconds : 0;
}

function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return "?";
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${Math.round(seconds % 60)} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

const count = (n: number) => Math.round(n).toLocaleString("en-US");

class TerminalProgress implements ProgressDisplay {
  readonly #bar: SingleBar;
  readonly #startedAt = Date.now();
  #retries = 0;
  #retryNote = "";

  constructor(
    private readonly total: number,
    private readonly already: number,
    stream: NodeJS.WriteStream,
  ) {
    this.#bar = new SingleBar({
      stream,
      format: "sending [{bar}] {percentage}% | {value}/{total} msgs | {rate} msg/s | ETA {etaText} | {retryText}",
      hideCursor: true,
      barsize: 24,
      fps: 5,
      formatValue: (value, _options, type) => (type === "value" || type === "total" ? count(value) : String(value)),
    });
    this.#bar.start(total, already, this.#payload(already));
  }

  update(sent: number): void {
    this.#bar.update(sent, this.#payload(sent));
  }

  retry(reason: string, delayMs: number): void {
    this.#retries++;
    this.#retryNote = `, last: ${reason}, ${formatSeconds(delayMs / 1000)} wait`;
    this.#bar.update(this.#payload(this.#bar.getProgress() * this.total));
  }

  stop(): void {
    this.#bar.stop();
  }

  #payload(sent: number): Record<string, string> {
    const perSecond = rate(sent - this.already, this.#startedAt);
    return {
      rate: count(perSecond),
      etaText: formatSeconds(perSecond > 0 ? (this.total - sent) / perSecond : Infinity),
      retryText: this.#retries === 0 ? "no retries" : `${this.#retries} retr${this.#retries === 1 ? "y" : "ies"}${this.#retryNote}`,
    };
  }
}

class PlainProgress implements ProgressDisplay {
  readonly #startedAt = Date.now();
  #sent: number;
  #retries = 0;
  #lastLine = 0;
  #lastPrinted = -1;

  constructor(
    private readonly total: number,
    private readonly already: number,
    private readonly stream: NodeJS.WritableStream,
  ) {
    this.#sent = already;
  }

  update(sent: number): void {
    this.#sent = sent;
    if (Date.now() - this.#lastLine >= PLAIN_PROGRESS_EVERY_MS) this.#print();
  }

  retry(reason: string, delayMs: number): void {
    this.#retries++;
    this.stream.write(
      `retrying a call after ${reason} in ${formatSeconds(delayMs / 1000)} (${this.#retries} retr${this.#retries === 1 ? "y" : "ies"} so far)\n`,
    );
  }

  stop(): void {
    if (this.#lastPrinted !== this.#sent) this.#print();
  }

  #print(): void {
    this.#lastLine = Date.now();
    this.#lastPrinted = this.#sent;
    const perSecond = rate(this.#sent - this.already, this.#startedAt);
    const percent = this.total > 0 ? Math.floor((this.#sent / this.total) * 100) : 100;
    const eta = perSecond > 0 ? formatSeconds((this.total - this.#sent) / perSecond) : "?";
    this.stream.write(
      `sent ${this.#sent}/${this.total} messages (${percent}%), ${count(perSecond)} msg/s, ETA ${eta}, ${this.#retries} retries\n`,
    );
  }
}
