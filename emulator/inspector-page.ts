import type { BatchTotals } from "./batch-store";
import { eventPayload } from "./events";
import type { Delivery, RecordedEvent, RecordedWebhookEndpoint } from "./emulator-operations";
import type { StoredBatch } from "./store";

/** What the inspector page shows. */
export interface InspectorData {
  readonly endpoints: readonly RecordedWebhookEndpoint[];
  /** Newest first. */
  readonly batches: readonly StoredBatch[];
  readonly totals: BatchTotals;
  /** Newest first. */
  readonly events: readonly RecordedEvent[];
  /** Newest first. */
  readonly attempts: readonly Delivery[];
  /** Seconds before each retry. */
  readonly retrySchedule: readonly number[];
  /** Every kept event by id, to show what each delivery sent. Default: the shown events. */
  readonly eventsById?: ReadonlyMap<string, RecordedEvent>;
}

/** Most characters of one payload shown on the page; the listing routes have the rest. */
export const INSPECTOR_PAYLOAD_CHARS = 16 * 1024;
/** Characters of a payload shown before it is expanded. */
const SUMMARY_CHARS = 80;

/** How often the page refreshes its live part, in milliseconds. */
export const INSPECTOR_REFRESH_MS = 1500;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML content and quoted attribute values. Everything shown comes from requests. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

// Tagged template: every interpolation is escaped unless it is already rendered HTML.
class Html {
  constructor(readonly text: string) {}
}
function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  values.forEach((value, i) => {
    const rendered = Array.isArray(value)
      ? value.map((v) => (v instanceof Html ? v.text : escapeHtml(v))).join("")
      : value instanceof Html
        ? value.text
        : escapeHtml(value ?? "");
    out += rendered + strings[i + 1];
  });
  return new Html(out);
}

function table(headings: string[], rows: Html[], empty: string, id: string): Html {
  if (rows.length === 0) return html`<p class="empty" id="${id}">${empty}</p>`;
  return html`<table id="${id}">
    <thead>
      <tr>
        ${headings.map((h) => html`<th>${h}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}

// JSON text indented for reading when it is small enough to parse for that; cut at the cap.
function readable(json: string): { text: string; cut: number } {
  if (json.length > INSPECTOR_PAYLOAD_CHARS) return { text: json.slice(0, INSPECTOR_PAYLOAD_CHARS), cut: json.length };
  try {
    return { text: JSON.stringify(JSON.parse(json), null, 2), cut: 0 };
  } catch {
    return { text: json, cut: 0 };
  }
}

/**
 * A payload, collapsed to its first characters and expandable (`<details>`): always as text
 * (escaped), wrapped rather than widening the page, and cut at {@link INSPECTOR_PAYLOAD_CHARS}.
 */
function payload(json: string, where: string, key: string, note?: string): Html {
  const { text, cut } = readable(json);
  const summary = json.length > SUMMARY_CHARS ? `${json.slice(0, SUMMARY_CHARS)}…` : json;
  return html`<details class="payload" data-key="${key}">
    <summary><code>${summary}</code></summary>
    <pre>${text}</pre>
    ${cut > 0 ? html`<p class="empty">first ${INSPECTOR_PAYLOAD_CHARS} of ${cut} characters; all of it: ${where}</p>` : ""}
    ${note !== undefined ? html`<p class="empty">${note}</p>` : ""}
  </details>`;
}

// What the receiver answered (the emulator keeps its first RESPONSE_BODY_MAX_BYTES).
function responseBody(a: Delivery): Html {
  if (a.responseBody === undefined) return html`<span class="empty">${a.status === null ? "no answer" : "not recorded"}</span>`;
  if (a.responseBytes === 0) return html`<span class="empty">empty</span>`;
  const kept = new TextEncoder().encode(a.responseBody).byteLength;
  const note =
    a.responseBytes !== undefined && a.responseBytes > kept
      ? `first ${kept} of ${a.responseBytes} bytes (the rest is not kept)`
      : undefined;
  return payload(a.responseBody, "GET /_emulator/deliveries", `response-${a.id}-${a.attempt}`, note);
}

function statusCell(attempt: Delivery): Html {
  const text = attempt.status === null ? "no answer" : String(attempt.status);
  return html`<td class="${attempt.ok ? "ok" : "bad"}" data-field="status">${text}</td>`;
}

/** The part of the page that refreshes itself. */
export function renderLive(data: InspectorData): string {
  const endpoints = table(
    ["id", "url", "events", "format", "description"],
    data.endpoints.map(
      (e) =>
        html`<tr>
          <td><code>${e.id}</code></td>
          <td>${e.url}</td>
          <td>${e.events.join(", ")}</td>
          <td>${e.format}</td>
          <td data-field="description">${e.description ?? ""}</td>
        </tr>`,
    ),
    "No webhook endpoints yet: create one with POST /v1/webhooks/endpoints.",
    "endpoints",
  );
  const eventsById = data.eventsById ?? new Map(data.events.map((e) => [e.event.id, e]));
  // What a delivery sent: the event in the endpoint's format (the same body on every attempt).
  const requestBody = (a: Delivery): Html => {
    const recorded = eventsById.get(a.eventId);
    if (recorded === undefined) return html`<span class="empty">no longer kept</span>`;
    return payload(eventPayload(recorded.event, a.format).body, `GET /_emulator/events`, `request-${a.id}-${a.attempt}`);
  };
  const attempts = table(
    ["delivery, attempt", "event", "url", "status", "outcome", "ms", "at", "error", "request body", "response body", ""],
    data.attempts.map(
      (a) =>
        html`<tr data-delivery-id="${a.id}" data-event-id="${a.eventId}" data-attempt="${a.attempt}" data-outcome="${a.outcome}">
          <td><code>${a.id}</code> ${a.attempt} (${a.trigger})</td>
          <td><code>${a.eventId}</code> ${a.type}</td>
          <td>${a.url}</td>
          ${statusCell(a)}
          <td data-field="outcome">${a.outcome}${a.nextAttemptAt ? html` (next ${a.nextAttemptAt.slice(11, 23)})` : ""}</td>
          <td>${Math.round(a.durationMs)}</td>
          <td>${a.attemptedAt.slice(11, 23)}</td>
          <td>${a.error ?? ""}</td>
          <td data-field="request">${requestBody(a)}</td>
          <td data-field="response">${responseBody(a)}</td>
          <td><button type="button" class="retry" data-retry="${a.id}">redeliver</button></td>
        </tr>`,
    ),
    "No delivery attempts yet: trigger an event below.",
    "deliveries",
  );
  const events = table(
    ["id", "type", "created", "deliveries", "payload"],
    data.events.map(
      (e) =>
        html`<tr data-event-id="${e.event.id}">
          <td><code>${e.event.id}</code></td>
          <td>${e.event.type ?? ""}</td>
          <td>${e.event.created}</td>
          <td>${e.deliveryIds.length}</td>
          <td data-field="payload">${payload(JSON.stringify(e.event), "GET /_emulator/events", `event-${e.event.id}`)}</td>
        </tr>`,
    ),
    "No events yet.",
    "events",
  );
  const t = data.totals;
  const batches = table(
    ["id", "stream", "created", "messages", "bodies"],
    data.batches.map(
      (b) =>
        html`<tr data-batch-id="${b.id}">
          <td><code>${b.id}</code></td>
          <td>${b.stream}</td>
          <td>${b.created}</td>
          <td>${b.messageCount}</td>
          <td data-field="messages">
            ${payload(b.messagesJson.toString(), `GET /_emulator/batches?after=… (or ?limit=N)`, `batch-${b.id}`)}
          </td>
        </tr>`,
    ),
    "No batches yet.",
    "batches",
  );
  return html`<h2>Delivery attempts</h2>
    ${attempts}
    <h2>Events</h2>
    ${events}
    <h2>Webhook endpoints</h2>
    ${endpoints}
    <h2>Recent batches</h2>
    <p id="batch-totals">
      ${t.batches} batches (${t.messages} messages) accepted; ${t.storedBatches} stored (${t.storedMessages} messages), ${t.evictedBatches}
      evicted.
    </p>
    ${batches}`.text;
}

const SCRIPT = `
const live = document.getElementById("live");
const note = document.getElementById("note");
async function refresh() {
  try {
    const response = await fetch(location.pathname, { headers: { accept: "text/html" }, cache: "no-store" });
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = page.getElementById("live");
    if (!fresh) return;
    // Payloads the reader expanded stay expanded across the refresh.
    const open = new Set([...live.querySelectorAll("details[open]")].map((d) => d.dataset.key));
    live.innerHTML = fresh.innerHTML;
    for (const d of live.querySelectorAll("details")) if (open.has(d.dataset.key)) d.open = true;
  } catch {}
}
setInterval(refresh, ${INSPECTOR_REFRESH_MS});
async function post(path, body) {
  const response = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body });
  const text = await response.text();
  let json; try { json = JSON.parse(text); } catch {}
  return { response, json, text };
}
document.getElementById("trigger").addEventListener("submit", async (e) => {
  e.preventDefault();
  const form = e.target;
  const body = { type: form.type.value };
  if (form.data.value.trim() !== "") {
    try { body.data = JSON.parse(form.data.value); } catch (error) { note.textContent = "data is not JSON: " + error.message; return; }
  }
  note.textContent = "sending…";
  const { response, json, text } = await post("/_emulator/events", JSON.stringify(body));
  note.textContent = response.ok
    ? "event " + response.headers.get("x-emulator-event-id") + ": " + json.length + " delivery attempt(s) made"
    : "rejected: " + ((json && json.detail) || text);
  await refresh();
});
live.addEventListener("click", async (e) => {
  const id = e.target && e.target.dataset && e.target.dataset.retry;
  if (!id) return;
  const { response, json, text } = await post("/_emulator/deliveries/" + encodeURIComponent(id) + "/retry", "");
  note.textContent = response.ok ? "redelivered " + id + ": " + (json.status === null ? "no answer" : json.status) : "rejected: " + ((json && json.detail) || text);
  await refresh();
});
`;

// Tables take the page's width and wrap long values (ids, URLs, payloads) rather than
// widening it: at 1280 px nothing is off-screen.
const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin-bottom: 1em; width: 100%; table-layout: fixed; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 24em; overflow: auto; margin: 4px 0; font-size: 12px; }
details.payload summary { cursor: pointer; } details.payload summary code { overflow-wrap: anywhere; }
li code, p code { overflow-wrap: anywhere; }
td.ok { color: #060; font-weight: bold; } td.bad { color: #a00; font-weight: bold; }
code { font-size: 12px; } .empty { color: #777; } #note { color: #036; }
form label { display: block; margin: 4px 0; } textarea { width: 40em; max-width: 100%; height: 5em; }
`;

/** The whole inspector page: server-rendered HTML with a small inline script, no build step. */
export function renderInspectorPage(data: InspectorData): string {
  const knownTypes = [...new Set(data.endpoints.flatMap((e) => e.events))];
  const schedule = data.retrySchedule.length === 0 ? "no retries" : `retries after ${data.retrySchedule.join(", ")} s`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>messaging emulator</title><style>${STYLE}</style></head>
<body>
<h1>messaging emulator</h1>
${html`<p>Deliveries: ${schedule} (network errors, timeouts, 408, 429 and 5xx are retried; other answers are final). This page refreshes itself.</p>`.text}
<h2>Trigger an event</h2>
<form id="trigger">
${
  html`<label>type <input name="type" required list="types" value="${knownTypes[0] ?? "payment.succeeded"}" /></label>
    <datalist id="types">${knownTypes.map((t) => html`<option value="${t}"></option>`)}</datalist>`.text
}
<label>data (JSON, optional; with an "object" member it is the event's data, otherwise it becomes data.object)<br><textarea name="data">{"id": "pay_123", "amount": 1200}</textarea></label>
<button type="submit">Trigger</button> <span id="note" role="status"></span>
</form>
<div id="live">${renderLive(data)}</div>
<h2>Routes</h2>
<ul>
<li><code>POST /v1/webhooks/endpoints</code>, <code>POST /v1/message_batches</code> (the service)</li>
<li><code>GET /_emulator/endpoints</code>, <code>GET /_emulator/batches?limit=N&amp;after=ID</code>, <code>GET /_emulator/events</code>, <code>GET /_emulator/deliveries[?event=ID]</code></li>
<li><code>POST /_emulator/events</code>, <code>POST /_emulator/deliveries/{id}/retry</code>, <code>GET|POST /_emulator/faults</code></li>
</ul>
<script>${SCRIPT}</script>
</body></html>`;
}
