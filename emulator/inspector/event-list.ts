import { viewHref, type EventStatus, type EventSummary, type InspectorData } from "./data";
import { clip, clock, html, type Html } from "./html";

const STATUS_LABELS: Record<EventStatus, string> = {
  delivered: "delivered",
  retrying: "retrying",
  pending: "sending",
  failed: "failed",
  unsubscribed: "no endpoint",
};

/** An event's (or a delivery's) status as a coloured badge. */
export function statusBadge(status: EventStatus): Html {
  return html`<span class="badge ${status}" data-status="${status}">${STATUS_LABELS[status]}</span>`;
}

function row(summary: EventSummary, selectedId: string | undefined): Html {
  const { event } = summary.recorded;
  const id = event.id;
  return html`<a
    class="event"
    href="${viewHref({ tab: "events", eventId: id })}"
    data-nav
    data-event-id="${id}"
    ${id === selectedId ? html`aria-current="true"` : ""}
  >
    <span class="line">
      ${clip(event.type ?? "", "type")}
      <span class="muted">${summary.attempts} ${summary.attempts === 1 ? "attempt" : "attempts"}</span> ${statusBadge(summary.status)}
    </span>
    <span class="line">${clip(id, "id")} <span class="muted">${clock(event.created)}</span></span>
  </a>`;
}

/** The list of events, newest first, the selected one marked. */
export function renderEventList(data: InspectorData): Html {
  const rows = data.events.map((summary) => row(summary, data.selected?.id));
  const more = data.keptEvents - data.events.length;
  return html`<nav
    id="events"
    class="event-list"
    aria-label="events"
    data-region="list"
    data-scroll="list"
    ${data.view.tab === "events" ? "" : html`hidden`}
  >
    ${rows.length === 0 ? html`<p class="empty">No events yet: trigger one above.</p>` : rows}
    ${more > 0 ? html`<p class="empty">${more} older events: GET /_emulator/events</p>` : ""}
  </nav>`;
}
