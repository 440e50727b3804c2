import { SHOWN, type InspectorData } from "./data";
import { html, type Html } from "./html";
import { INSPECTOR_PAYLOAD_CHARS } from "./payload";

/** The retry schedule in a few words: "retries after 1, 2, 4 s". */
export function retrySchedule(seconds: readonly number[]): string {
  return seconds.length === 0 ? "no retries" : `retries after ${seconds.join(", ")} s`;
}

/** How deliveries are retried, in one sentence. */
export function retryPolicy(seconds: readonly number[]): string {
  return `Deliveries: ${retrySchedule(seconds)} (network errors, timeouts, 408, 429 and 5xx are retried; other answers are final).`;
}

/** The routes tab: what the emulator answers, and where the page's data comes from in full. */
export function renderRoutes(data: InspectorData): Html {
  return html`<section class="sheet prose" data-region="routes" ${data.view.tab === "routes" ? "" : html`hidden`}>
    <h2>Routes</h2>
    <ul>
      <li><code>POST /v1/webhooks/endpoints</code>, <code>POST /v1/message_batches</code> (the service)</li>
      <li>
        <code>GET /_emulator/endpoints</code>, <code>GET /_emulator/batches?limit=N&amp;after=ID</code>, <code>GET /_emulator/events</code>,
        <code>GET /_emulator/deliveries[?event=ID]</code>
      </li>
      <li>
        <code>POST /_emulator/events</code>, <code>POST /_emulator/deliveries/{id}/retry</code>, <code>GET|POST /_emulator/faults</code>
      </li>
    </ul>
    <h2>This page</h2>
    <p>${retryPolicy(data.retrySchedule)}</p>
    <p>
      It refreshes itself, showing the newest ${SHOWN.events} events, ${SHOWN.batches} batches and ${SHOWN.attemptsPerDelivery} attempts of
      each delivery, and payloads up to ${INSPECTOR_PAYLOAD_CHARS / 1024} KiB; the listing routes above have the rest. <kbd>j</kbd> and
      <kbd>k</kbd> select the next and the previous event.
    </p>
  </section>`;
}
