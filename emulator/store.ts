import type { Message, WebhookEndpointObject } from "../schemas";
import { randomId } from "./ids";

/**
 * A webhook endpoint as the emulator creates, records and answers it: every field of spec
 * §2.2 is present. (The client's `WebhookEndpointObject` requires only `id` and `secret`,
 * since a real service may leave others out; the emulator always sends them all.)
 */
export interface RecordedWebhookEndpoint extends WebhookEndpointObject {
  /** Endpoint id, prefix `we_`. */
  readonly id: string;
  /** Signing secret, prefix `whsec_`. */
  readonly secret: string;
  /** When it was created, ISO 8601 UTC. */
  readonly created: string;
  /** When it last changed, ISO 8601 UTC (equal to `created`: the emulator never updates). */
  readonly updated: string;
  /** `basic` or `cloudEvents`. */
  readonly format: string;
  /** The emulator's one workspace, prefix `wksp_`. */
  readonly workspace: string;
  /** Always false: the emulator is test mode. */
  readonly live: boolean;
  /** Quoted strong etag. */
  readonly etag: string;
  /** Subscribed event types. */
  readonly events: string[];
  /** The description given, or null. */
  readonly description: string | null;
  /** Always `enabled`. */
  readonly status: string;
  /** Where events are delivered. */
  readonly url: string;
  /** Always `{}`: nothing sets metadata. */
  readonly metadata: Record<string, string>;
}

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

/** One attempt to deliver an event to an endpoint, as `GET /_emulator/deliveries` lists it. */
export interface Delivery {
  /** Delivery id, prefix `dlv_`. */
  readonly id: string;
  /** The endpoint delivered to (`we_…`). */
  readonly endpointId: string;
  /** The event delivered (`evt_…`). */
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
}

/**
 * Everything the emulator has recorded. In memory, for one emulator's lifetime.
 *
 * The store never copies: it owns what routes hand it (freshly built or parsed objects the
 * route does not touch again), and readers get the recorded objects themselves, read-only.
 * Routes only serialize what they read; the public `Emulator` accessors hand out copies, so
 * tests cannot change what was recorded.
 */
export class EmulatorStore {
  /** The workspace every endpoint of this emulator belongs to (`wksp_…`). */
  readonly workspace = randomId("wksp_");
  private readonly endpointList: RecordedWebhookEndpoint[] = [];
  private readonly batchList: RecordedBatch[] = [];
  private readonly deliveryList: Delivery[] = [];

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

  /** Records an accepted batch, taking ownership of it (copying was the emulator's largest cost per batch). */
  addBatch(batch: RecordedBatch): void {
    this.batchList.push(batch);
  }

  /** Accepted batches in order (the recorded objects: do not change them). */
  batches(): readonly RecordedBatch[] {
    return this.batchList;
  }

  /** Records delivery attempts, taking ownership of them. */
  addDeliveries(deliveries: readonly Delivery[]): void {
    this.deliveryList.push(...deliveries);
  }

  /** Delivery attempts in order (the recorded objects: do not change them). */
  deliveries(): readonly Delivery[] {
    return this.deliveryList;
  }
}
