import type { ReplayClaim, ReplayGuard } from "./replay-guard";

/**
 * A handler's side of the replay guard: an event id is claimed before `onEvent`, marked done
 * only after it resolved, forgotten when it failed. A delivery of an id in progress, here or
 * (with a guard that has `claim`) in another process, is told to come back: answering it as
 * done would lose the event if the processing in progress then failed.
 */
export class EventClaims {
  // Ids this handler is processing: known at once, before any await, so two deliveries of
  // one event arriving together are told apart even with a guard that has only `seen`.
  private readonly running = new Set<string>();

  constructor(private readonly guard: ReplayGuard | undefined) {}

  /** What to do with a delivery of `eventId`; without a guard every delivery is processed. */
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

  /** Ends a claim: the id is processed (`onEvent` resolved) or forgotten (it failed). */
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
