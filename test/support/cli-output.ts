/** Captures a CLI command's output in-process and lets a test wait for a line (an event, not a timer). */
export class CapturedOutput {
  stdout = "";
  stderr = "";
  private waiters: Array<{ test: () => boolean; resolve: () => void }> = [];

  readonly io = {
    stdout: (text: string) => this.write("stdout", text),
    stderr: (text: string) => this.write("stderr", text),
  };

  private write(stream: "stdout" | "stderr", text: string): void {
    this[stream] += text;
    this.waiters = this.waiters.filter((waiter) => {
      if (!waiter.test()) return true;
      waiter.resolve();
      return false;
    });
  }

  /** Resolves once stdout matches `pattern` (at once if it already does). */
  until(pattern: RegExp): Promise<void> {
    return new Promise((resolve) => {
      if (pattern.test(this.stdout)) return resolve();
      this.waiters.push({ test: () => pattern.test(this.stdout), resolve });
    });
  }
}
