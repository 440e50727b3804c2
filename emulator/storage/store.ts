import { BatchStore, type StoredBatch } from "./batch-store";
import type { Delivery, RecordedEvent, EmulatedWebhookEndpoint } from "../records";
import { randomId } from "./ids";
import { DEFAULT_MAX_STORED_BYTES, recordBytes } from "./stored-bytes";

export { readBatch, serializeBatch, type StoredBatch } from "./batch-store";

/** Bounds of what the emulator keeps; the oldest go first (see {@link EmulatorStore}). */
export interface StoreLimits {
  readonly maxStoredMessages: number;
  /** Over batches, events, delivery attempts and endpoints together (`stored-bytes.ts`). */
  readonly maxStoredBytes?: number;
  readonly maxStoredAttempts?: number;
  readonly maxStoredEvents?: number;
  readonly maxEndpoints?: number;
}

export const DEFAULT_MAX_ENDPOINTS = 10_000;

export const DEFAULT_MAX_STORED_MESSAGES = 1_000_000;

/** What the store keeps now, and what it has evicted since start. */
export interface StorageTotals {
  /** As the budget counts them. */
  readonly storedBytes: number;
  readonly maxStoredBytes: number;
  readonly evictedEvents: number;
  readonly evictedAttempts: number;
}

/** Items leave from a moving head, compacted now and then, so eviction is O(1). */
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

  list(): T[] {
    return this.items.slice(this.head);
  }
}

/**
 * Everything the emulator has recorded, bounded: batches by messages, attempts and events by
 * count, and all of it by a byte budget. Past the budget the oldest batches go first, then
 * events, then attempts; endpoints are never evicted.
 *
 * The store never copies: it owns what routes hand it, and readers get the recorded objects,
 * read-only. The public `Emulator` accessors hand out copies.
 */
export class EmulatorStore {
  readonly account = { workspace: randomId("wksp_"), live: false } as const;
  /** Add to it with {@link addBatch}, which keeps the budget. */
  readonly batches: BatchStore;
  readonly maxEndpoints: number;
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

  storedBytes(): number {
    return this.batches.storedBytes + this.eventList.bytes + this.attemptList.bytes + this.endpointBytes;
  }

  storageTotals(): StorageTotals {
    return {
      storedBytes: this.storedBytes(),
      maxStoredBytes: this.maxStoredBytes,
      evictedEvents: this.eventList.evicted,
      evictedAttempts: this.attemptList.evicted,
    };
  }

  addBatch(batch: StoredBatch): void {
    this.batches.add(batch);
    this.keepWithinBudget();
  }

  /** Endpoints are never evicted, so all of them together must fit in the byte budget. */
  endpointRefusal(endpoint: EmulatedWebhookEndpoint): string | undefined {
    if (this.endpointList.length >= this.maxEndpoints) {
      return `This emulator already has ${this.maxEndpoints} webhook endpoints, its limit; start a fresh one.`;
    }
    if (this.endpointBytes + recordBytes(endpoint) > this.maxStoredBytes) {
      return `The webhook endpoints would take more than the emulator's ${this.maxStoredBytes}-byte storage budget (--max-stored-bytes); start a fresh one, or a larger budget.`;
    }
    return undefined;
  }

  /** After {@link endpointRefusal}. */
  addEndpoint(endpoint: EmulatedWebhookEndpoint): void {
    this.endpointList.push(endpoint);
    this.endpointsById.set(endpoint.id, endpoint);
    this.endpointBytes += recordBytes(endpoint);
    this.keepWithinBudget();
  }

  endpoints(): readonly EmulatedWebhookEndpoint[] {
    return this.endpointList;
  }

  endpoint(id: string): EmulatedWebhookEndpoint | undefined {
    return this.endpointsById.get(id);
  }

  subscribersOf(type: string): readonly EmulatedWebhookEndpoint[] {
    return this.endpointList.filter((endpoint) => endpoint.events.includes(type));
  }

  addEvent(event: RecordedEvent): void {
    this.eventList.push(event, recordBytes(event));
    this.keepWithinBudget();
  }

  events(): readonly RecordedEvent[] {
    return this.eventList.list();
  }

  addAttempt(attempt: Delivery): void {
    this.attemptList.push(attempt, recordBytes(attempt));
    this.keepWithinBudget();
  }

  deliveries(): readonly Delivery[] {
    return this.attemptList.list();
  }

  // Batches first: they are the bulk of what is stored.
  private keepWithinBudget(): void {
    while (this.storedBytes() > this.maxStoredBytes) {
      if (!this.batches.evictOldest() && !this.eventList.evictOldest() && !this.attemptList.evictOldest()) return;
    }
  }
}
