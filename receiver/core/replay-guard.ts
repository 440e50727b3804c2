import { ConfigurationError } from "../../errors/messaging-error";

/** `in_progress` is answered "come back later", not "done", since the processing in progress may still fail. */
export type ReplayClaim = "claimed" | "in_progress" | "done";

/**
 * Remembers which events were processed, so each is processed once (a replay, or a redelivery after your answer was lost).
 * The handlers `claim`, then `complete` once `onEvent` resolved or `forget` when it failed; without `claim` they ask `seen` and
 * know of an event in progress only in their own process. Over Redis: `claim` = `SET id in_progress NX EX <longest onEvent>`,
 * else `GET id`; `complete` = `SET id done EX 86400`; `forget` = `DEL id`.
 */
export interface ReplayGuard {
  /** Records `eventId`; true when it was already recorded (a duplicate). Must be atomic ("set if absent") when shared. */
  seen(eventId: string): boolean | Promise<boolean>;
  /** Called when `onEvent` threw, so that a redelivery is processed. */
  forget?(eventId: string): void | Promise<void>;
  /** Atomically records an unknown `eventId` as in progress (`claimed`), else answers what is recorded. */
  claim?(eventId: string): ReplayClaim | Promise<ReplayClaim>;
  /** Called once `onEvent` resolved. */
  complete?(eventId: string): void | Promise<void>;
}

export interface MemoryReplayGuardOptions {
  /** Most event ids remembered, oldest forgotten first. Default 100,000. */
  readonly maxEntries?: number;
  /** Default 86,400 (24 h): longer than the service's retries of one event are assumed to last. */
  readonly ttlSeconds?: number;
  readonly now?: () => number;
}

/** An in-memory {@link ReplayGuard} for one process. Lost on restart, so a duplicate across a restart is processed again. */
export class MemoryReplayGuard implements ReplayGuard {
  // Insertion order is expiry order (one TTL for all), so expired ids are at the front.
  private readonly expiries = new Map<string, number>();
  // Never evicted, so a retry meanwhile is never taken for a new event.
  private readonly inProgress = new Set<string>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  /** @throws ConfigurationError for an option that would silently remove the bound or the replay protection. */
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

  // Returns "now". A NaN clock would expire every id at once, turning the guard off without a word: refused.
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
