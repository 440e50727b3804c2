import type { MessagingEvent } from "../../schemas";
import { attemptDelivery, DELIVERY_TIMEOUT_MS } from "./deliveries";
import { classifyAttempt, retryDelaySeconds } from "./delivery-policy";
import { eventPayload, type EventPayload } from "./events";
import { randomId, type EmulatorStore } from "../storage";
import { problem } from "../http";
import type { Delivery, EmulatedWebhookEndpoint } from "../records";

/** Settings of a {@link DeliveryQueue}. */
export interface DeliveryQueueOptions {
  /** Seconds to wait before each retry (see `delivery-policy.ts`). */
  readonly retrySchedule: readonly number[];
  /** Per-attempt time limit in milliseconds. Default `DELIVERY_TIMEOUT_MS` (5 s). */
  readonly timeoutMs?: number;
  /** Aborted when the emulator closes: attempts in flight stop, no retry is scheduled. */
  readonly closing: AbortSignal;
  /**
   * Most deliveries kept for retries and redelivery. Beyond it the oldest are forgotten,
   * finished ones first, then (under a flood of failing deliveries) pending ones, whose
   * scheduled retries are dropped. Default {@link DEFAULT_MAX_TRACKED_DELIVERIES}.
   */
  readonly maxTracked?: number;
}

/** Default of {@link DeliveryQueueOptions.maxTracked}: 1,000 deliveries. */
export const DEFAULT_MAX_TRACKED_DELIVERIES = 1_000;

interface DeliveryState {
  readonly id: string;
  readonly endpoint: EmulatedWebhookEndpoint;
  readonly event: MessagingEvent;
  /** The exact bytes sent on every attempt (only the signature's timestamp changes). */
  readonly payload: EventPayload;
  attempts: number;
  /** Scheduled retries used so far. */
  retries: number;
  inFlight: boolean;
  done: boolean;
  timer?: NodeJS.Timeout;
}

type Trigger = Delivery["trigger"];

/**
 * Delivers events like a real service: a first attempt at once, then retries on the schedule
 * while the failure may pass (see `classifyAttempt`), each attempt recorded in the store.
 * Retries carry the same body (same event id) with a fresh signature timestamp.
 */
export class DeliveryQueue {
  private readonly states = new Map<string, DeliveryState>();
  private readonly pending = new Set<Promise<unknown>>();
  private readonly idleWaiters: Array<() => void> = [];
  private scheduled = 0;

  constructor(
    private readonly store: EmulatorStore,
    private readonly options: DeliveryQueueOptions,
  ) {
    options.closing.addEventListener("abort", () => {
      for (const state of this.states.values()) this.cancelTimer(state);
      this.notifyIfIdle();
    });
  }

  /**
   * Emits `event` to `endpoints`: records the event, makes the first attempt of each delivery
   * concurrently, and resolves with those first attempts (retries follow on their own).
   */
  async emit(event: MessagingEvent, endpoints: readonly EmulatedWebhookEndpoint[]): Promise<Delivery[]> {
    const states = endpoints.map((endpoint) => this.track(event, endpoint));
    this.store.addEvent({ event, deliveryIds: states.map((state) => state.id) });
    return Promise.all(states.map((state) => this.attempt(state, "initial")));
  }

  /**
   * `POST /_emulator/deliveries/{id}/retry`: one more attempt now, whatever the state. A
   * success ends the delivery (a scheduled retry is cancelled); a failure leaves a pending
   * schedule as it was. Throws 404 for an unknown (or forgotten) id, 409 while an attempt is
   * in flight.
   */
  async redeliver(id: string): Promise<Delivery> {
    const state = this.states.get(id);
    if (state === undefined) {
      throw problem(404, "not_found", `No delivery ${id} is known (ids are listed by GET /_emulator/deliveries; old ones are forgotten).`);
    }
    if (state.inFlight)
      throw problem(409, "delivery_in_progress", `An attempt of delivery ${id} is in progress; retry once it is recorded.`);
    return this.attempt(state, "manual");
  }

  /** Seconds before each retry. */
  get retrySchedule(): readonly number[] {
    return this.options.retrySchedule;
  }

  /** Resolves once no attempt is in flight and no retry is scheduled (tests, shutdown). */
  settled(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private track(event: MessagingEvent, endpoint: EmulatedWebhookEndpoint): DeliveryState {
    const state: DeliveryState = {
      id: randomId("dlv_"),
      endpoint,
      event,
      payload: eventPayload(event, endpoint.format),
      attempts: 0,
      retries: 0,
      inFlight: false,
      done: false,
    };
    this.states.set(state.id, state);
    this.forgetOldest();
    return state;
  }

  private async attempt(state: DeliveryState, trigger: Trigger): Promise<Delivery> {
    const hadTimer = state.timer !== undefined;
    this.cancelTimer(state);
    state.inFlight = true;
    state.attempts += 1;
    const attempt = state.attempts;
    const work = attemptDelivery(state.endpoint, state.payload, {
      timeoutMs: this.options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
      signal: this.options.closing,
    });
    this.pending.add(work);
    let result;
    try {
      result = await work;
    } finally {
      this.pending.delete(work);
      state.inFlight = false;
    }

    const verdict = classifyAttempt(result.status);
    if (trigger === "scheduled") state.retries += 1;
    let nextDelay: number | undefined;
    if (verdict === "delivered") {
      state.done = true;
    } else if (trigger === "manual") {
      // A manual attempt does not use up the schedule: a pending retry is put back.
      if (hadTimer) nextDelay = retryDelaySeconds(state.retries + 1, this.options.retrySchedule);
    } else if (verdict === "retryable" && !state.done) {
      nextDelay = retryDelaySeconds(state.retries + 1, this.options.retrySchedule);
      if (nextDelay === undefined) state.done = true;
    } else {
      state.done = true;
    }
    if (this.options.closing.aborted) nextDelay = undefined;

    const record: Delivery = {
      id: state.id,
      attempt,
      trigger,
      endpointId: state.endpoint.id,
      eventId: state.event.id,
      type: state.event.type ?? "",
      url: state.endpoint.url,
      format: state.endpoint.format,
      status: result.status,
      ok: verdict === "delivered",
      ...(result.error !== undefined ? { error: result.error } : {}),
      ...(result.response !== undefined ? { responseBody: result.response.text, responseBytes: result.response.bytes } : {}),
      attemptedAt: result.attemptedAt.toISOString(),
      durationMs: result.durationMs,
      outcome: verdict === "delivered" ? "delivered" : nextDelay !== undefined ? "retry_scheduled" : "failed",
      ...(nextDelay !== undefined ? { nextAttemptAt: new Date(Date.now() + nextDelay * 1000).toISOString() } : {}),
    };
    this.store.addAttempt(record);
    if (nextDelay !== undefined) this.schedule(state, nextDelay);
    this.notifyIfIdle();
    return record;
  }

  private schedule(state: DeliveryState, delaySeconds: number): void {
    this.scheduled += 1;
    state.timer = setTimeout(() => {
      state.timer = undefined;
      this.scheduled -= 1;
      void this.attempt(state, "scheduled");
    }, delaySeconds * 1000);
  }

  private cancelTimer(state: DeliveryState): void {
    if (state.timer === undefined) return;
    clearTimeout(state.timer);
    state.timer = undefined;
    this.scheduled -= 1;
  }

  // Keeps the map bounded: finished deliveries go first, oldest first; then the oldest
  // pending ones (their retries dropped). One in flight is left to finish.
  private forgetOldest(): void {
    const max = this.options.maxTracked ?? DEFAULT_MAX_TRACKED_DELIVERIES;
    for (const finishedOnly of [true, false]) {
      for (const [id, state] of this.states) {
        if (this.states.size <= max) return;
        if (state.inFlight || (finishedOnly && (!state.done || state.timer !== undefined))) continue;
        this.cancelTimer(state);
        this.states.delete(id);
      }
    }
    this.notifyIfIdle();
  }

  private isIdle(): boolean {
    return this.pending.size === 0 && this.scheduled === 0;
  }

  private notifyIfIdle(): void {
    if (!this.isIdle()) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
