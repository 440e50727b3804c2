import type { InspectorData } from "./data";
import { clip, clock, html, table, type Column, type Html } from "./html";

const ENDPOINT_COLUMNS: Column[] = [
  { header: "id", width: "w-id" },
  { header: "url" },
  { header: "events", width: "w-events" },
  { header: "format", width: "w-format" },
  { header: "description", width: "w-description" },
  { header: "created", width: "w-time" },
];

/** The endpoints tab: one row each, every value on one line (the whole of it in its tooltip). */
export function renderEndpoints(data: InspectorData): Html {
  const rows = data.endpoints.map(
    (e) =>
      html`<tr data-endpoint-id="${e.id}">
        <td>${clip(e.id, "id")}</td>
        <td>${clip(e.url, "url")}</td>
        <td>${clip(e.events.join(", "))}</td>
        <td>${e.format}</td>
        <td data-field="description">${clip(e.description ?? "")}</td>
        <td>${clock(e.created)}</td>
      </tr>`,
  );
  return html`<section class="sheet" data-region="endpoints" data-scroll="endpoints" ${data.view.tab === "endpoints" ? "" : html`hidden`}>
    ${
      rows.length === 0
        ? html`<p class="empty" id="endpoints">No webhook endpoints yet: create one with POST /v1/webhooks/endpoints.</p>`
        : table("endpoints", ENDPOINT_COLUMNS, rows)
    }
  </section>`;
}
