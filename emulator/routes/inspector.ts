import { renderInspectorPage } from "../inspector-page";
import type { Reply } from "../reply";
import type { RouteContext } from "../route-context";

/** How many of the newest batches, events and attempts the page shows. */
const SHOWN = { batches: 20, events: 50, attempts: 200 };

/**
 * `GET /_emulator/`: the inspector page (HTML), authenticated like every route (a browser
 * asks for the key through its Basic-auth prompt: the key as user name, no password).
 */
export function showInspector({ store, deliveries }: RouteContext): Reply {
  const newest = <T>(items: readonly T[], count: number) => items.slice(-count).reverse();
  const body = renderInspectorPage({
    endpoints: store.endpoints(),
    batches: store.batches.newest(SHOWN.batches),
    totals: store.batches.totals(),
    events: newest(store.events(), SHOWN.events),
    attempts: newest(store.deliveries(), SHOWN.attempts),
    retrySchedule: deliveries.retrySchedule,
    eventsById: new Map(store.events().map((recorded) => [recorded.event.id, recorded])),
  });
  return {
    status: 200,
    // The page runs its own inline script only; nothing is loaded from elsewhere.
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    },
    body,
  };
}
