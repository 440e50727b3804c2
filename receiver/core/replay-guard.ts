import { ConfigurationError } from "../../errors/messaging-error";

/**
 * What a replay guard knows of an event id when a delivery of it arrives: `claimed` (it was
 * unknown and is now recorded as in progress: process it), `in_progress` (another delivery of
 * it is being processed: answer "come back later", not "done", since that processing may
 * still fail), or `done` (processed: answer 2xx without processing it again).
 */
export type ReplayClaim = "claimed" | "in_progress" | "done";

/**
 * Remembers which events were processed, so that each is processed once: a request replayed
 * within the signature's tolerance window, or an event the service delivers again (a retry
 * after your answer was lost or came too late), is recognized by its event id.
 *
 * The handlers (`createWebhookHandler`, `createWebhookRequestHandler`) use `claim`, then
 * `complete` once `onEvent` resolved or `forget` when it failed, so that an event is marked
 * processed only after it was. A guard without `claim` is asked `seen` instead; the handlers
 * then know of an event in progress only within their own process.
 *
 * Implement it over your own store when the receiver runs as several processes (Redis:
 * `claim` = `SET id in_progress NX EX <longest onEvent>`, else `GET id`; `complete` =
 * `SET id done EX 86400`; `forget` = `DEL id`); {@link MemoryReplayGuard} serves one process.
 */
export interface ReplayGuard {
  /**
   * Records `eventId` as processed and says whether it had been recorded already (true: a
   * duplicate, do not process it again). Must be atomic ("set if absent") when shared between
   * processes. `verifyWebhookRequest` uses it, and the handlers when there is no `claim`.
   */
  seen(eventId: string): boolean | Promise<boolean>;
  /**
   * Forgets `eventId`, so that a redelivery is processed: called when processing the event
   * failed (`onEvent` threw). Optional.
   */
  forget?(eventId: string): void | Promise<void>;
  /**
   * Atomically: records an unknown `eventId` as in progress and answers `claimed`; otherwise
   * answers what is recorded (`in_progress` or `done`). Optional (see the interface).
   */
  claim?(eventId: string): ReplayClaim | Promise<ReplayClaim>;
  /** Records a claimed `eventId` as processed: called once `onEvent` resolved. Optional, with `claim`. */
  complete?(eventId: string): void | Promise<void>;
}

/** Options of {@link MemoryReplayGuard}. */
export interface MemoryReplayGuardOptions {
  /** Most event ids remembered; the oldest are forgotten first. A positive whole number; default 100,000. */
  readonly maxEntries?: number;
  /**
   * How long an event id is remembered, in whole seconds (at least 1). Default 86,400 (24 h): longer than the
   * service's retries of one event are assumed to last.
   */
  readonly ttlSeconds?: number;
  /** The clock, in milliseconds since the epoch (tests). Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * An in-memory {@link ReplayGuard} for a receiver that runs as one process: bounded (oldest
 * ids forgotten first) and expiring. Its memory is lost on restart, so a duplicate arriving
 * across a restart is processed again: use a shared store where that matters.
 */
export class MemoryReplayGuard implements ReplayGuard {
  // Processed ids. Insertion order is expiry order (one TTL for all), so expired ids are at the front.
  private readonly expiries = new Map<string, number>();
  // Claimed ids whose processing has not ended: never evicted (as many as deliveries being
  // handled at once), so a retry meanwhile is never taken for a new event.
  private readonly inProgress = new Set<string>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  /**
   * @throws ConfigurationError when `maxEntries` or `ttlSeconds` is not a positive whole
   *   number (NaN, negative, fractional or infinite would silently remove the bound or the
   *   replay protection), or `now` is not a function.
   */
  constructor(options: MemoryReplayGuardOptions = {}) {
    this.maxEntries = positiveWholeNumber("maxEntries", options.maxEntries, 100_000, "event ids");
    this.ttlMs = positiveWholeNumber("ttlSeconds", options.ttlSeconds, 86_400, "seconds") * 1000;
    if (options.now !== undefined && typeof options.now !== "function") {
      throw new ConfigurationError("MemoryReplayGuard: now must be a function returning milliseconds since the epoch");
    }
    this.now = options.now ?? Date.now;
  }

  seen(eventId: string): boolean {
    const now = this.dropExpired();
    if (this.expiries.has(eventId) || this.inProgress.has(eventId)) return true;
    this.record(eventId, now);
    return false;
  }

  claim(eventId: string): ReplayClaim {
    this.dropExpired();
    if (this.inProgress.has(eventId)) return "in_progress";
    if (this.expiries.has(eventId)) return "done";
    this.inProgress.add(eventId);
    return "claimed";
  }

  complete(eventId: string): void {
    const now = this.dropExpired();
    this.inProgress.delete(eventId);
    this.expiries.delete(eventId);
    this.record(eventId, now);
  }

  forget(eventId: string): void {
    this.inProgress.delete(eventId);
    this.expiries.delete(eventId);
  }

  /**
   * Forgets expired ids; returns "now".
   * @throws ConfigurationError when the clock gives no finite number (with NaN every id
   *   would count as expired at once: the guard would be off without a word).
   */
  private dropExpired(): number {
    const now = this.now();
    if (typeof now !== "number" || !Number.isFinite(now)) {
      throw new ConfigurationError(
        `MemoryReplayGuard: now() must return a finite number of milliseconds since the epoch, got ${typeof now === "number" ? String(now) : typeof now}`,
      );
    }
    for (const [id, expiry] of this.expiries) {
      if (expiry > now) break;
      this.expiries.delete(id);
    }
    return now;
  }

  /** Records a processed id, forgetting the oldest beyond `maxEntries`. */
  private record(eventId: string, now: number): void {
    while (this.expiries.size >= this.maxEntries && this.expiries.size > 0) this.expiries.delete(this.expiries.keys().next().value!);
    this.expiries.set(eventId, now + this.ttlMs);
  }
}

function positiveWholeNumber(name: string, value: unknown, fallback: number, unit: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    const got = typeof value === "number" ? String(value) : typeof value;
    throw new ConfigurationError(`MemoryReplayGuard: ${name} must be a positive whole number of ${unit} (default ${fallback}), got ${got}`);
  }
  return value;
}
