import { ConfigurationError } from "../errors/messaging-error";

/**
 * Remembers which events were processed, so that each is processed once: a request replayed
 * within the signature's tolerance window, or an event the service delivers again (a retry
 * after your answer was lost), is recognized by its event id.
 *
 * Implement it over your own store (Redis `SET key 1 NX EX 86400`, a unique database
 * column) when the receiver runs as several processes; {@link MemoryReplayGuard} serves one.
 */
export interface ReplayGuard {
  /**
   * Records `eventId` and says whether it had been recorded already (true: a duplicate, do
   * not process it again). Must be atomic ("set if absent") when shared between processes.
   */
  seen(eventId: string): boolean | Promise<boolean>;
  /**
   * Forgets `eventId`, so that a redelivery is processed: call it when processing the event
   * failed (`createWebhookHandler` does, when `onEvent` throws). Optional.
   */
  forget?(eventId: string): void | Promise<void>;
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
  // Insertion order is expiry order (one TTL for all), so expired ids are at the front.
  private readonly expiries = new Map<string, number>();
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
    const now = this.now();
    for (const [id, expiry] of this.expiries) {
      if (expiry > now) break;
      this.expiries.delete(id);
    }
    if (this.expiries.has(eventId)) return true;
    while (this.expiries.size >= this.maxEntries && this.expiries.size > 0) this.expiries.delete(this.expiries.keys().next().value!);
    this.expiries.set(eventId, now + this.ttlMs);
    return false;
  }

  forget(eventId: string): void {
    this.expiries.delete(eventId);
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
