import type { InspectorData } from "./data";
import { clip, clock, html, table, type Column, type Html } from "./html";
import { collapsedBody } from "./payload";

const BATCH_COLUMNS: Column[] = [
  { header: "id", width: "w-id" },
  { header: "stream", width: "w-stream" },
  { header: "created", width: "w-time" },
  { header: "messages", width: "w-count", number: true },
  { header: "bodies" },
];

/** The batches tab: the totals since start, then the newest batches with their messages. */
export function renderBatches(data: InspectorData): Html {
  const t = data.totals;
  const rows = data.batches.map(
    (b) =>
      html`<tr data-batch-id="${b.id}">
        <td>${clip(b.id, "id")}</td>
        <td>${clip(b.stream)}</td>
        <td>${clock(b.created)}</td>
        <td class="number">${b.messageCount}</td>
        <td data-field="messages">
          ${collapsedBody(b.messagesJson.toString(), "GET /_emulator/batches?after=… (or ?limit=N)", `batch-${b.id}`)}
        </td>
      </tr>`,
  );
  return html`<section class="sheet" data-region="batches" data-scroll="batches" ${data.view.tab === "batches" ? "" : html`hidden`}>
    <p id="batch-totals" class="totals">
      ${t.batches} batches (${t.messages} messages) accepted; ${t.storedBatches} stored (${t.storedMessages} messages), ${t.evictedBatches}
      evicted. The newest ${data.batches.length} are shown.
    </p>
    ${rows.length === 0 ? html`<p class="empty" id="batches">No batches yet.</p>` : table("batches", BATCH_COLUMNS, rows)}
  </section>`;
}
