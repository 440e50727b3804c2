import type { Message, MessagingEvent, WebhookEndpointObject } from "../schemas";
import { BatchStore } from "./batch-store";
import { randomId } from "./ids";

/** The named fields of a type, without its index signature. */
type NamedFields<T> = { [K in keyof T as string extends K ? never : K]: T[K] };

/**
 * A webhook endpoint as the emulator creates, records and answers it: the wire type
 * (`WebhookEndpointObject`, spec §2.2) with every field present, derived rather than
 * listed again. Only `description` may be null. (The client's type requires only `id` and
 * `secret`, since a real service may leave others out; the emulator always sends them all.)
 * The values the emulator gives each field are in `routes/webhook-endpoints.ts`.
 */
export type RecordedWebhookEndpoint = {
  readonly [K in keyof NamedFields<WebhookEndpointObject>]-?: K extends "description"
    ? string | null
    : NonNullable<WebhookEndpointObject[K]>;
};

/** A batch the emulator accepted, as `GET /_emulator/batches` lists it. */
export interface RecordedBatch {
  /** Batch id, prefix `msba_`. */
  readonly id: string;
  /** The stream it was sent on. */
  readonly stream: string;
  /** The messages exactly as accepted (recipients plus body or template). */
  readonly messages: Message[];
  /** When it was accepted, ISO 8601 UTC. */
  readonly created: string;
}

/**
 * A batch as the store keeps it: its messages serialized once, as one string. A string costs
 * about half the memory of the message objects and nothing to the garbage collector's marking,
 * and a listing writes it out as is.
 */
export interface StoredBatch {
  readonly id: string;
  readonly stream: string;
  readonly created: string;
  /** How many messages it holds. */
  readonly messageCount: number;
  /** `JSON.stringify` of the validated messages. */
  readonly messagesJson: string;
}

/** The batch as listed: `{"id":…,"stream":…,"created":…,"messages":[…]}`, without parsing the messages. */
export function serializeBatch(batch: StoredBatch): string {
  return `{"id":${JSON.stringify(batch.id)},"stream":${JSON.stringify(batch.stream)},"created":${JSON.stringify(batch.created)},"messages":${batch.messagesJson}}`;
}

/** The batch with its messages parsed (fresh objects each time). */
export function readBatch(batch: StoredBatch): RecordedBatch {
  return { id: batch.id, stream: batch.stream, created: batch.created, messages: JSON.parse(batch.messagesJson) as Message[] };
}

/** What an attempt led to. */
export type AttemptOutcome =
  /** The receiver answered 2xx: the delivery is done. */
  | "delivered"
  /** It failed in a way that may pass; another attempt is scheduled (`nextAttemptAt`). */
  | "retry_scheduled"
  /** It failed and no attempt follows (a final status, or the schedule is used up). */
  | "failed";

/**
 * One attempt to deliver an event to an endpoint, as `GET /_emulator/deliveries` lists it.
 * Every attempt of one delivery (one event to one endpoint) has the same `id`.
 */
export interface Delivery {
  /** Delivery id, prefix `dlv_`: the same for every attempt of this event to this endpoint. */
  readonly id: string;
  /** 1 for the first attempt, then 2, 3, … (manual redeliveries included). */
  readonly attempt: number;
  /** Why the attempt was made: the event was emitted, a scheduled retry, or `POST …/retry`. */
  readonly trigger: "initial" | "scheduled" | "manual";
  /** The endpoint delivered to (`we_…`). */
  readonly endpointId: string;
  /** The event delivered (`evt_…`): the same on every attempt. */
  readonly eventId: string;
  /** The event type. */
  readonly type: string;
  /** The URL posted to. */
  readonly url: string;
  /** The payload format used: `basic` or `cloudEvents`. */
  readonly format: string;
  /** The receiver's HTTP status, or null when no response came (refused, timed out…). */
  readonly status: number | null;
  /** True when the receiver answered 2xx. */
  readonly ok: boolean;
  /** Why the attempt failed without a status, when it did. */
  readonly error?: string;
  /** When the attempt started, ISO 8601 UTC. */
  readonly attemptedAt: string;
  /** How long it took, in milliseconds, until the answer (or the failure). */
  readonly durationMs: number;
  /** What the attempt led to. */
  readonly outcome: AttemptOutcome;
  /** When the next attempt is due, ISO 8601 UTC, when `outcome` is `retry_scheduled`. */
  readonly nextAttemptAt?: string;
}

/** An event emitted through the emulator, as the inspector page lists it. */
export interface RecordedEvent {
  /** The event as delivered (basic format). */
  readonly event: MessagingEvent;
  /** The ids of its deliveries, one per subscribed endpoint. */
  readonly deliveryIds: readonly string[];
}

/** Bounds of what the emulator keeps. */
export interface StoreLimits {
  /** Most messages kept in accepted batches; the oldest batches go first. */
  readonly maxStoredMessages: number;
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

// Drops the oldest items once the list is over `max`, in one splice per 1,024 extra items.
function trimOldest<T>(list: T[], max: number): void {
  if (list.length > max + Math.min(1024, max)) list.splice(0, list.length - max);
}

/**
 * Everything the emulator has recorded. In memory, for one emulator's lifetime, and bounded:
 * batches by the number of messages they hold, attempts and events by count.
 *
 * The store never copies: it owns what routes hand it (freshly built or parsed objects the
 * route does not touch again), and readers get the recorded objects themselves, read-only.
 * Routes only serialize what they read; the public `Emulator` accessors hand out copies, so
 * tests cannot change what was recorded.
 */
export class EmulatorStore {
  /** The workspace every endpoint of this emulator belongs to (`wksp_…`). */
  readonly workspace = randomId("wksp_");
  /** Accepted batches, bounded by `maxStoredMessages`. */
  readonly batches: BatchStore;
  /** Most webhook endpoints (see {@link StoreLimits.maxEndpoints}). */
  readonly maxEndpoints: number;
  private readonly endpointList: RecordedWebhookEndpoint[] = [];
  private readonly attemptList: Delivery[] = [];
  private readonly eventList: RecordedEvent[] = [];
  private readonly maxAttempts: number;
  private readonly maxEvents: number;

  constructor(limits: StoreLimits = { maxStoredMessages: DEFAULT_MAX_STORED_MESSAGES }) {
    this.batches = new BatchStore(limits.maxStoredMessages);
    this.maxAttempts = limits.maxStoredAttempts ?? 10_000;
    this.maxEvents = limits.maxStoredEvents ?? 1_000;
    this.maxEndpoints = limits.maxEndpoints ?? DEFAULT_MAX_ENDPOINTS;
  }

  /** Records a created endpoint, taking ownership of it. */
  addEndpoint(endpoint: RecordedWebhookEndpoint): void {
    this.endpointList.push(endpoint);
  }

  /** Endpoints in creation order (the recorded objects: do not change them). */
  endpoints(): readonly RecordedWebhookEndpoint[] {
    return this.endpointList;
  }

  /** Endpoints whose `events` include `type`, in creation order (the recorded objects). */
  subscribersOf(type: string): readonly RecordedWebhookEndpoint[] {
    return this.endpointList.filter((endpoint) => endpoint.events.includes(type));
  }

  /** Records an emitted event. */
  addEvent(event: RecordedEvent): void {
    this.eventList.push(event);
    trimOldest(this.eventList, this.maxEvents);
  }

  /** Emitted events, oldest first (the most recent `maxStoredEvents`). */
  events(): readonly RecordedEvent[] {
    return this.eventList.length > this.maxEvents ? this.eventList.slice(-this.maxEvents) : this.eventList;
  }

  /** Records one delivery attempt, taking ownership of it. */
  addAttempt(attempt: Delivery): void {
    this.attemptList.push(attempt);
    trimOldest(this.attemptList, this.maxAttempts);
  }

  /** Delivery attempts in order (the most recent `maxStoredAttempts`; the recorded objects). */
  deliveries(): readonly Delivery[] {
    return this.attemptList.length > this.maxAttempts ? this.attemptList.slice(-this.maxAttempts) : this.attemptList;
  }
}
