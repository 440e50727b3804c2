import type { InspectorData } from "./data";
import { clip, clock, html, type Html } from "./html";
import { collapsedBody } from "./payload";

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
    ${
      rows.length === 0
        ? html`<p class="empty" id="batches">No batches yet.</p>`
        : html`<table id="batches">
            <colgroup>
              <col class="w-id" />
              <col class="w-stream" />
              <col class="w-time" />
              <col class="w-count" />
              <col />
            </colgroup>
            <thead>
              <tr>
                <th>id</th>
                <th>stream</th>
                <th>created</th>
                <th class="number">messages</th>
                <th>bodies</th>
              </tr>
            </thead>
            <tbody>
              ${rows}
            </tbody>
          </table>`
    }
  </section>`;
}
