import { STATUS_CODES } from "node:http";
import { deliveryHeaders, eventPayload } from "../delivery";
import type { Delivery, RecordedEvent } from "../records";
import type { DeliveryAttempts, InspectorData, SelectedEvent } from "./data";
import { statusBadge } from "./event-list";
import { clip, clock, html, type Html } from "./html";
import { body, collapsedBody } from "./payload";

const TRIGGER_LABELS: Record<Delivery["trigger"], string> = { initial: "initial", scheduled: "scheduled retry", manual: "manual" };

function statusPill(attempt: Delivery): Html {
  return html`<span class="status ${attempt.ok ? "ok" : "bad"}">${attempt.status ?? "no answer"}</span>`;
}

function duration(ms: number): string {
  return `${ms < 100 ? ms.toFixed(1) : Math.round(ms)} ms`;
}

function outcome(attempt: Delivery): Html {
  if (attempt.outcome === "retry_scheduled" && attempt.nextAttemptAt !== undefined) {
    return html`retry scheduled, next ${clock(attempt.nextAttemptAt)}`;
  }
  return html`${attempt.outcome === "retry_scheduled" ? "retry scheduled" : attempt.outcome}`;
}

// What the attempt sent: the headers are made again from the attempt's time (deliveryHeaders
// is deterministic), the body is the event in the endpoint's format. The body is the same on
// every attempt, so it starts collapsed: the attempts below stay in view.
function request(attempt: Delivery, delivery: DeliveryAttempts, recorded: RecordedEvent | undefined): Html {
  const line = `POST ${attempt.url}`;
  const head = html`<h4>Request</h4>
    <div class="request-line clip" title="${line}"><b>POST</b> ${attempt.url}</div>`;
  if (recorded === undefined || delivery.endpoint === undefined) {
    return html`${head}
      <p class="note">The event is no longer kept: its request is not shown.</p>`;
  }
  const payload = eventPayload(recorded.event, attempt.format);
  const headers = Object.entries(deliveryHeaders(delivery.endpoint.secret, payload, new Date(attempt.attemptedAt)));
  return html`${head}
    <pre class="headers">${headers.map(([name, value]) => `${name}: ${value}`).join("\n")}</pre>
    ${collapsedBody(payload.body, "GET /_emulator/events", `request-${attempt.id}-${attempt.attempt}`, "body")}`;
}

// What the receiver answered (the emulator keeps its first RESPONSE_BODY_MAX_BYTES), or why nothing came.
function response(attempt: Delivery): Html {
  const reason = attempt.status === null ? "" : (STATUS_CODES[attempt.status] ?? "");
  const line = html`<h4>Response</h4>
    <div class="response-line">${statusPill(attempt)} ${reason} <span class="muted">· ${duration(attempt.durationMs)}</span></div>`;
  if (attempt.error !== undefined) {
    return html`${line}
      <pre class="error">${attempt.error}</pre>`;
  }
  if (attempt.responseBody === undefined) {
    return html`${line}
      <p class="note">Body not recorded.</p>`;
  }
  if (attempt.responseBytes === 0) {
    return html`${line}
      <p class="note">Empty body.</p>`;
  }
  const kept = Buffer.byteLength(attempt.responseBody);
  const note =
    attempt.responseBytes !== undefined && attempt.responseBytes > kept
      ? `first ${kept} of ${attempt.responseBytes} bytes (the rest is not kept)`
      : undefined;
  return html`${line} ${body(attempt.responseBody, "GET /_emulator/deliveries", note)}`;
}

// The receiver's answer comes first: it is what a failing delivery is looked up for.
function attemptBlock(attempt: Delivery, delivery: DeliveryAttempts, recorded: RecordedEvent | undefined, newest: boolean): Html {
  return html`<details
    class="attempt"
    data-key="attempt-${attempt.id}-${attempt.attempt}"
    data-attempt="${attempt.attempt}"
    data-outcome="${attempt.outcome}"
    ${newest ? html`open` : ""}
  >
    <summary>
      <span class="n">#${attempt.attempt}</span> ${statusPill(attempt)}
      <span class="outcome">${outcome(attempt)}</span>
      <span class="muted">${TRIGGER_LABELS[attempt.trigger]}</span>
      <span class="muted">${duration(attempt.durationMs)}</span>
      <span class="muted">${clock(attempt.attemptedAt)}</span>
    </summary>
    <div class="exchange">
      <section class="response" data-field="response">${response(attempt)}</section>
      <section class="request" data-field="request">${request(attempt, delivery, recorded)}</section>
    </div>
  </details>`;
}

function deliveryBlock(delivery: DeliveryAttempts, recorded: RecordedEvent | undefined): Html {
  const endpoint = delivery.endpoint;
  return html`<section class="delivery" data-delivery-id="${delivery.id}">
    <header>
      <div class="target">
        ${endpoint ? clip(endpoint.url, "url") : html`<span class="muted">first attempt in progress</span>`}
        <span class="ids"
          >delivery ${clip(delivery.id, "id")} ${endpoint ? html`endpoint ${clip(endpoint.id, "id")} · ${endpoint.format}` : ""}</span
        >
      </div>
      ${statusBadge(delivery.status)}
      <button type="button" data-retry="${delivery.id}" title="POST /_emulator/deliveries/${delivery.id}/retry">Deliver again</button>
    </header>
    ${delivery.attempts.map((attempt, i) => attemptBlock(attempt, delivery, recorded, i === 0))}
    ${
      delivery.olderAttempts > 0
        ? html`<p class="note">
            ${delivery.olderAttempts} older attempts: GET /_emulator/deliveries?event=${delivery.attempts[0].eventId}
          </p>`
        : ""
    }
  </section>`;
}

function eventDetail(selected: SelectedEvent): Html {
  const { recorded } = selected;
  if (recorded === undefined && selected.deliveries.length === 0) {
    return html`<p class="empty">Event ${selected.id} is not kept: GET /_emulator/events lists those that are.</p>`;
  }
  const type = recorded?.event.type ?? selected.deliveries[0]?.attempts[0]?.type ?? "";
  const deliveries =
    selected.deliveries.length === 0
      ? html`<p class="empty">No endpoint is subscribed to ${type}: nothing was delivered.</p>`
      : selected.deliveries.map((delivery) => deliveryBlock(delivery, recorded));
  return html`<header class="detail-head">
      <h2>${clip(type, "type")}</h2>
      ${statusBadge(selected.status)}
    </header>
    <div class="facts">
      <span>event ${clip(selected.id, "id")}</span>
      ${
        recorded
          ? html`<span>created <span class="clip" title="${recorded.event.created}">${recorded.event.created}</span></span>`
          : html`<span>no longer kept</span>`
      }
      <span>${selected.deliveries.length} ${selected.deliveries.length === 1 ? "delivery" : "deliveries"}</span>
    </div>
    ${recorded ? collapsedBody(JSON.stringify(recorded.event), "GET /_emulator/events", `event-${selected.id}`, "event") : ""}
    <h3>Deliveries</h3>
    ${deliveries}`;
}

/** The detail pane: the selected event, then each delivery's attempts with what was sent and answered. */
export function renderEventDetail(data: InspectorData): Html {
  const selected = data.selected;
  const content =
    selected !== undefined
      ? eventDetail(selected)
      : html`<div class="empty">
          <p>No events yet.</p>
          <p>
            Create an endpoint with <code>POST /v1/webhooks/endpoints</code> (${data.endpoints.length} so far), then trigger an event with
            the form above, <code>messaging trigger</code> or <code>POST /_emulator/events</code>.
          </p>
        </div>`;
  return html`<article
    id="detail"
    data-region="detail"
    data-scroll="detail:${selected?.id ?? ""}"
    data-event-id="${selected?.id ?? ""}"
    ${data.view.tab === "events" ? "" : html`hidden`}
  >
    ${content}
  </article>`;
}
