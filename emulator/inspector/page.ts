import { createHash } from "node:crypto";
import { INSPECTOR_SCRIPT } from "./client-script";
import { viewHref, type InspectorData, type InspectorTab } from "./data";
import { renderBatches } from "./batches-view";
import { renderEndpoints } from "./endpoints-view";
import { renderEventDetail } from "./event-detail";
import { renderEventList } from "./event-list";
import { html, type Html } from "./html";
import { renderRoutes, retryPolicy, retrySchedule } from "./routes-view";
import { INSPECTOR_STYLE } from "./styles";

function sha256(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * The page's Content-Security-Policy: its own inline script and style run by their hashes,
 * nothing else inline does (an injected handler or style would not, were escaping ever to
 * fail), nothing is loaded from elsewhere, and no other site may frame it.
 */
export const INSPECTOR_CSP = [
  "default-src 'self'",
  `script-src ${sha256(INSPECTOR_SCRIPT)}`,
  `style-src ${sha256(INSPECTOR_STYLE)}`,
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

function tabs(data: InspectorData): Html {
  const count = (n: number) => html`<span class="count">${n}</span>`;
  const tab = (name: InspectorTab, label: string, n?: number) =>
    html`<a
      class="tab"
      id="tab-${name}"
      href="${viewHref({ tab: name, eventId: data.view.eventId })}"
      data-nav
      ${data.view.tab === name ? html`aria-current="page"` : ""}
      >${label} ${n === undefined ? "" : count(n)}</a
    >`;
  return html`<nav class="tabs" data-region="tabs" aria-label="views">
    ${tab("events", "Events", data.keptEvents)} ${tab("endpoints", "Endpoints", data.endpoints.length)}
    ${tab("batches", "Batches", data.totals.storedBatches)} ${tab("routes", "Routes")}
  </nav>`;
}

function triggerForm(data: InspectorData): Html {
  const knownTypes = [...new Set(data.endpoints.flatMap((e) => e.events))];
  const dataHelp = `data (JSON, optional; with an "object" member it is the event's data, otherwise it becomes data.object)`;
  return html`<form id="trigger" class="toolbar">
    <label for="trigger-type">Trigger</label>
    <input id="trigger-type" name="type" required list="types" value="${knownTypes[0] ?? "payment.succeeded"}" aria-label="event type" />
    <datalist id="types">${knownTypes.map((t) => html`<option value="${t}"></option>`)}</datalist>
    <label for="trigger-data" title="${dataHelp}">data</label>
    <textarea id="trigger-data" name="data" rows="1" wrap="off" spellcheck="false" title="${dataHelp}" aria-label="${dataHelp}">
{"id": "pay_123", "amount": 1200}</textarea>
    <button type="submit" class="primary">Trigger</button>
    <span id="note" class="clip" role="status"></span>
  </form>`;
}

/** The whole inspector page: server-rendered HTML with a small inline script, no build step. */
export function renderInspectorPage(data: InspectorData): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>messaging emulator</title><style>${INSPECTOR_STYLE}</style></head>
<body>
${
  html`<header class="bar">
      <h1><span id="live" class="live" data-state="live" title="refreshes itself"></span>messaging emulator</h1>
      ${tabs(data)}
      <p class="policy" title="${retryPolicy(data.retrySchedule)}">${retrySchedule(data.retrySchedule)}</p>
    </header>
    ${triggerForm(data)}
    <main>${renderEventList(data)} ${renderEventDetail(data)} ${renderEndpoints(data)} ${renderBatches(data)} ${renderRoutes(data)}</main>`
    .text
}
<script>${INSPECTOR_SCRIPT}</script>
</body></html>`;
}
