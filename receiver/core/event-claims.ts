import type { ReplayClaim, ReplayGuard } from "./replay-guard";

/**
 * An event id is claimed before `onEvent`, done only after it resolved, forgotten when it failed. A delivery of an id in progress
 * is told to come back: answering it as done would lose the event if the processing in progress then failed.
 */
export class EventClaims {
  // Known before any await, so two deliveries arriving together are told apart even with a guard that has only `seen`.
  private readonly running = new Set<string>();

  constructor(private readonly guard: ReplayGuard | undefined) {}

  async claim(eventId: string): Promise<ReplayClaim> {
    if (this.guard === undefined) return "claimed";
    if (this.running.has(eventId)) return "in_progress";
    this.running.add(eventId);
    let answer: ReplayClaim;
    try {
      answer = this.guard.claim !== undefined ? await this.guard.claim(eventId) : (await this.guard.seen(eventId)) ? "done" : "claimed";
    } catch (error) {
      this.running.delete(eventId);
      throw error;
    }
    if (answer !== "claimed") this.running.delete(eventId);
    return answer;
  }

  async settle(eventId: string, processed: boolean): Promise<void> {
    if (this.guard === undefined) return;
    try {
      if (processed) await this.guard.complete?.(eventId);
      else await this.guard.forget?.(eventId);
    } finally {
      this.running.delete(eventId);
    }
  }
}
