import { BatchStore, type StoredBatch } from "./batch-store";
import type { Delivery, RecordedEvent, EmulatedWebhookEndpoint } from "../operations";
import { randomId } from "./ids";
import { DEFAULT_MAX_STORED_BYTES, recordBytes } from "./stored-bytes";

export { readBatch, serializeBatch, type StoredBatch } from "./batch-store";

/** Bounds of what the emulator keeps. */
export interface StoreLimits {
  /** Most messages kept in accepted batches; the oldest batches go first. */
  readonly maxStoredMessages: number;
  /**
   * Most bytes kept, counted as `stored-bytes.ts` says, over batches, events, delivery attempts
   * and endpoints together. Past it the oldest batches go first, then the oldest events, then
   * the oldest delivery attempts; endpoints are never evicted (a create that cannot fit is
   * refused). Default {@link DEFAULT_MAX_STORED_BYTES} (256 MiB).
   */
  readonly maxStoredBytes?: number;
  /** Most delivery attempts kept (oldest go first). Default 10,000. */
  readonly maxStoredAttempts?: number;
  /** Most events kept (oldest go first). Default 1,000. */
  readonly maxStoredEvents?: number;
  /** Most webhook endpoints; creating more is refused (409). Default {@link DEFAULT_MAX_ENDPOINTS}. */
  readonly maxEndpoints?: number;
}

/** Default {@link StoreLimits.maxEndpoints}: 10,000. */
export const DEFAULT_MAX_ENDPOINTS = 10_000;

/** Default {@link StoreLimits.maxStoredMessages}: one million. */
export const DEFAULT_MAX_STORED_MESSAGES = 1_000_000;

/** What the store keeps now, and what it let go, as the inspector and the state route show it. */
export interface StorageTotals {
  /** Bytes stored, as the budget counts them. */
  readonly storedBytes: number;
  /** The budget (`maxStoredBytes`). */
  readonly maxStoredBytes: number;
  /** Events evicted (by count or by the budget) since start. */
  readonly evictedEvents: number;
  /** Delivery attempts evicted (by count or by the budget) since start. */
  readonly evictedAttempts: number;
}

/**
 * A list that forgets its oldest items by count or on demand, and knows the bytes its items
 * count. Items leave from a moving head, compacted now and then, so eviction is O(1).
 */
class CountedList<T> {
  private items: T[] = [];
  private sizes: number[] = [];
  private head = 0;
  bytes = 0;
  evicted = 0;

  constructor(private readonly max: number) {}

  push(item: T, bytes: number): void {
    this.items.push(item);
    this.sizes.push(bytes);
    this.bytes += bytes;
    while (this.length > this.max) this.evictOldest();
  }

  get length(): number {
    return this.items.length - this.head;
  }

  evictOldest(): boolean {
    if (this.head >= this.items.length) return false;
    this.bytes -= this.sizes[this.head];
    (this.items as Array<T | undefined>)[this.head] = undefined;
    this.head++;
    this.evicted++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
    return true;
  }

  /** The items kept, oldest first (a copy of the list; the items themselves). */
  list(): T[] {
    return this.items.slice(this.head);
  }
}

/**
 * Everything the emulator has recorded. In memory, for one emulator's lifetime, and bounded:
 * batches by the number of messages they hold, attempts and events by count, and all of it,
 * endpoints included, by a byte budget (`maxStoredBytes`).
 *
 * The store never copies: it owns what routes hand it (freshly built or parsed objects the
 * route does not touch again), and readers get the recorded objects themselves, read-only.
 * Routes only serialize what they read; the public `Emulator` accessors hand out copies, so
 * tests cannot change what was recorded.
 */
export class EmulatorStore {
  /** What the account says of every object it owns: its workspace (`wksp_…`), in test mode. */
  readonly account = { workspace: randomId("wksp_"), live: false } as const;
  /** Accepted batches, bounded by `maxStoredMessages` (read them here; add them with {@link addBatch}). */
  readonly batches: BatchStore;
  /** Most webhook endpoints (see {@link StoreLimits.maxEndpoints}). */
  readonly maxEndpoints: number;
  /** The byte budget (see {@link StoreLimits.maxStoredBytes}). */
  readonly maxStoredBytes: number;
  private readonly endpointList: EmulatedWebhookEndpoint[] = [];
  private readonly endpointsById = new Map<string, EmulatedWebhookEndpoint>();
  private endpointBytes = 0;
  private readonly attemptList: CountedList<Delivery>;
  private readonly eventList: CountedList<RecordedEvent>;

  constructor(limits: StoreLimits = { maxStoredMessages: DEFAULT_MAX_STORED_MESSAGES }) {
    this.batches = new BatchStore(limits.maxStoredMessages);
    this.attemptList = new CountedList(limits.maxStoredAttempts ?? 10_000);
    this.eventList = new CountedList(limits.maxStoredEvents ?? 1_000);
    this.maxEndpoints = limits.maxEndpoints ?? DEFAULT_MAX_ENDPOINTS;
    this.maxStoredBytes = limits.maxStoredBytes ?? DEFAULT_MAX_STORED_BYTES;
  }

  /** Bytes stored now, as the budget counts them. */
  storedBytes(): number {
    return this.batches.storedBytes + this.eventList.bytes + this.attemptList.bytes + this.endpointBytes;
  }

  /** The byte budget's figures. */
  storageTotals(): StorageTotals {
    return {
      storedBytes: this.storedBytes(),
      maxStoredBytes: this.maxStoredBytes,
      evictedEvents: this.eventList.evicted,
      evictedAttempts: this.attemptList.evicted,
    };
  }

  /** Records an accepted batch, taking ownership of it; evicts what the caps and the budget say. */
  addBatch(batch: StoredBatch): void {
    this.batches.add(batch);
    this.keepWithinBudget();
  }

  /**
   * Why `endpoint` cannot be recorded, or undefined: endpoints are never evicted, so all of
   * them together must fit in the byte budget.
   */
  endpointRefusal(endpoint: EmulatedWebhookEndpoint): string | undefined {
    if (this.endpointList.length >= this.maxEndpoints) {
      return `This emulator already has ${this.maxEndpoints} webhook endpoints, its limit; start a fresh one.`;
    }
    if (this.endpointBytes + recordBytes(endpoint) > this.maxStoredBytes) {
      return `The webhook endpoints would take more than the emulator's ${this.maxStoredBytes}-byte storage budget (--max-stored-bytes); start a fresh one, or a larger budget.`;
    }
    return undefined;
  }

  /** Records a created endpoint (checked with {@link endpointRefusal}), taking ownership of it. */
  addEndpoint(endpoint: EmulatedWebhookEndpoint): void {
    this.endpointList.push(endpoint);
    this.endpointsById.set(endpoint.id, endpoint);
    this.endpointBytes += recordBytes(endpoint);
    this.keepWithinBudget();
  }

  /** Endpoints in creation order (the recorded objects: do not change them). */
  endpoints(): readonly EmulatedWebhookEndpoint[] {
    return this.endpointList;
  }

  /** The endpoint with this id (the recorded object), or undefined. */
  endpoint(id: string): EmulatedWebhookEndpoint | undefined {
    return this.endpointsById.get(id);
  }

  /** Endpoints whose `events` include `type`, in creation order (the recorded objects). */
  subscribersOf(type: string): readonly EmulatedWebhookEndpoint[] {
    return this.endpointList.filter((endpoint) => endpoint.events.includes(type));
  }

  /** Records an emitted event. */
  addEvent(event: RecordedEvent): void {
    this.eventList.push(event, recordBytes(event));
    this.keepWithinBudget();
  }

  /** Emitted events, oldest first (the most recent `maxStoredEvents`, within the budget). */
  events(): readonly RecordedEvent[] {
    return this.eventList.list();
  }

  /** Records one delivery attempt, taking ownership of it. */
  addAttempt(attempt: Delivery): void {
    this.attemptList.push(attempt, recordBytes(attempt));
    this.keepWithinBudget();
  }

  /** Delivery attempts in order (the most recent `maxStoredAttempts`, within the budget; the recorded objects). */
  deliveries(): readonly Delivery[] {
    return this.attemptList.list();
  }

  // Oldest batches first (the bulk of what is stored), then events, then attempts.
  private keepWithinBudget(): void {
    while (this.storedBytes() > this.maxStoredBytes) {
      if (!this.batches.evictOldest() && !this.eventList.evictOldest() && !this.attemptList.evictOldest()) return;
    }
  }
}
