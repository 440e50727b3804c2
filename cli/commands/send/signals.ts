/** Why a command stopped on a signal. */
export class Interrupted extends Error {
  constructor(readonly signalName: "SIGINT" | "SIGTERM") {
    super(`interrupted by ${signalName}`);
  }

  /** The exit code of a process ended by this signal: 130 for SIGINT, 143 for SIGTERM. */
  get exitCode(): number {
    return this.signalName === "SIGINT" ? 130 : 143;
  }
}

/** How long calls in flight are let finish after Ctrl-C, in ms, before they are cancelled. */
const SETTLE_MS = 10_000;

/**
 * SIGINT/SIGTERM while sending: the first stops new calls (`stop`) and lets calls in
 * flight settle for up to {@link SETTLE_MS}, then cancels them (`cancel`); a second one
 * cancels at once.
 */
export class SignalWatch {
  readonly stop = new AbortController();
  readonly cancel = new AbortController();
  received?: Interrupted;
  #timer?: NodeJS.Timeout;
  readonly #onSignal = (name: "SIGINT" | "SIGTERM") => {
    if (this.received) {
      this.cancel.abort(this.received);
      return;
    }
    this.received = new Interrupted(name);
    this.stop.abort(this.received);
    this.#timer = setTimeout(() => this.cancel.abort(this.received), SETTLE_MS);
    this.#timer.unref();
  };
  readonly #sigint = () => this.#onSignal("SIGINT");
  readonly #sigterm = () => this.#onSignal("SIGTERM");

  constructor() {
    process.on("SIGINT", this.#sigint);
    process.on("SIGTERM", this.#sigterm);
  }

  dispose(): void {
    clearTimeout(this.#timer);
    process.off("SIGINT", this.#sigint);
    process.off("SIGTERM", this.#sigterm);
  }
}
