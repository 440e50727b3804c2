import type { EmulatorStore, StoredBatch } from "../storage";
import type { BatchTotals, Delivery, RecordedEvent, EmulatedWebhookEndpoint } from "../records";

/** The page's tabs. */
const INSPECTOR_TABS = ["events", "endpoints", "batches", "routes"] as const;
export type InspectorTab = (typeof INSPECTOR_TABS)[number];

/** What the page shows, from its URL: `?tab=endpoints&event=evt_…` (both optional). */
export interface InspectorView {
  readonly tab: InspectorTab;
  /** The event selected in the list; the newest when absent. */
  readonly eventId?: string;
}

/** How many of the newest batches, events and attempts of a delivery the page shows. */
export const SHOWN = { batches: 20, events: 50, attemptsPerDelivery: 50 };

/**
 * Where an event's deliveries stand, from each one's latest attempt: `failed` when one gave
 * up, `retrying` while one waits for a retry, `pending` while a first attempt is in flight,
 * `delivered` when all are, `unsubscribed` when no endpoint wanted it.
 */
export type EventStatus = "failed" | "retrying" | "pending" | "delivered" | "unsubscribed";

/** One row of the event list. */
export interface EventSummary {
  readonly recorded: RecordedEvent;
  readonly status: EventStatus;
  /** Attempts of all its deliveries. */
  readonly attempts: number;
}

/** One delivery of the selected event: its endpoint and its attempts, newest first. */
export interface DeliveryAttempts {
  readonly id: string;
  /** Unknown only until the first attempt is recorded. */
  readonly endpoint?: EmulatedWebhookEndpoint;
  /** Newest first, at most {@link SHOWN}.attemptsPerDelivery. */
  readonly attempts: readonly Delivery[];
  /** Older attempts left out. */
  readonly olderAttempts: number;
  readonly status: EventStatus;
}

/** The event in the detail pane. */
export interface SelectedEvent {
  readonly id: string;
  /** Undefined when the event is no longer kept (its attempts may be). */
  readonly recorded?: RecordedEvent;
  readonly status: EventStatus;
  readonly deliveries: readonly DeliveryAttempts[];
}

/** What the inspector page shows. */
export interface InspectorData {
  readonly view: InspectorView;
  readonly endpoints: readonly EmulatedWebhookEndpoint[];
  /** Newest first. */
  readonly batches: readonly StoredBatch[];
  readonly totals: BatchTotals;
  /** Newest first. */
  readonly events: readonly EventSummary[];
  /** Events kept (more than {@link events} holds when there are over SHOWN.events). */
  readonly keptEvents: number;
  readonly selected?: SelectedEvent;
  /** Seconds before each retry. */
  readonly retrySchedule: readonly number[];
}

/** The view a request asks for; anything unknown falls back to the events tab and the newest event. */
export function inspectorView(query: URLSearchParams): InspectorView {
  const tab = INSPECTOR_TABS.find((name) => name === query.get("tab")) ?? "events";
  const eventId = query.get("event") || undefined;
  return { tab, eventId };
}

/** The page's own address for a view (relative, so `/_emulator` and `/_emulator/` both work). */
export function viewHref(view: InspectorView): string {
  const query = new URLSearchParams();
  if (view.tab !== "events") query.set("tab", view.tab);
  if (view.eventId !== undefined) query.set("event", view.eventId);
  return `?${query}`;
}

function statusOf(latestAttempts: ReadonlyArray<Delivery | undefined>): EventStatus {
  if (latestAttempts.length === 0) return "unsubscribed";
  if (latestAttempts.some((a) => a?.outcome === "failed")) return "failed";
  if (latestAttempts.some((a) => a?.outcome === "retry_scheduled")) return "retrying";
  if (latestAttempts.some((a) => a === undefined)) return "pending";
  return "delivered";
}

/** Reads what the view needs from the store. */
export function collectInspectorData(store: EmulatorStore, retrySchedule: readonly number[], view: InspectorView): InspectorData {
  // Every kept attempt by delivery, oldest first.
  const attemptsByDelivery = new Map<string, Delivery[]>();
  for (const attempt of store.deliveries()) {
    const attempts = attemptsByDelivery.get(attempt.id);
    if (attempts === undefined) attemptsByDelivery.set(attempt.id, [attempt]);
    else attempts.push(attempt);
  }
  const latest = (deliveryId: string) => attemptsByDelivery.get(deliveryId)?.at(-1);

  const kept = store.events();
  const events = kept
    .slice(-SHOWN.events)
    .reverse()
    .map((recorded) => ({
      recorded,
      status: statusOf(recorded.deliveryIds.map(latest)),
      attempts: recorded.deliveryIds.reduce((sum, id) => sum + (attemptsByDelivery.get(id)?.length ?? 0), 0),
    }));

  const selectedId = view.eventId ?? events[0]?.recorded.event.id;
  let selected: SelectedEvent | undefined;
  if (selectedId !== undefined) {
    const recorded = kept.find((e) => e.event.id === selectedId);
    // An event no longer kept is known by the attempts that remain.
    const deliveryIds = recorded?.deliveryIds ?? [...new Set(store.deliveries().flatMap((a) => (a.eventId === selectedId ? [a.id] : [])))];
    const endpointsById = new Map(store.endpoints().map((e) => [e.id, e]));
    const deliveries = deliveryIds.map((id) => {
      const attempts = attemptsByDelivery.get(id) ?? [];
      const first = attempts[0];
      return {
        id,
        endpoint: first && endpointsById.get(first.endpointId),
        attempts: attempts.slice(-SHOWN.attemptsPerDelivery).reverse(),
        olderAttempts: Math.max(0, attempts.length - SHOWN.attemptsPerDelivery),
        status: statusOf([attempts.at(-1)]),
      };
    });
    selected = { id: selectedId, recorded, status: statusOf(deliveryIds.map(latest)), deliveries };
  }

  return {
    view,
    endpoints: store.endpoints(),
    batches: store.batches.newest(SHOWN.batches),
    totals: store.batches.totals(),
    events,
    keptEvents: kept.length,
    selected,
    retrySchedule,
  };
}
