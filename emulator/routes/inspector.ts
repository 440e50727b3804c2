import { collectInspectorData, inspectorView, INSPECTOR_CSP, renderInspectorPage } from "../inspector";
import type { Reply } from "../http";
import type { RouteContext } from "./route-context";

/**
 * `GET /_emulator/[?tab=…][&event=…]`: the inspector page (HTML), authenticated like every
 * route (a browser asks for the key through its Basic-auth prompt: the key as user name, no
 * password). `tab` is events (default), endpoints, batches or routes; `event` the event shown
 * in the detail pane (default the newest).
 */
export function showInspector({ store, deliveries, query }: RouteContext): Reply {
  const data = collectInspectorData(store, deliveries.retrySchedule, inspectorView(query));
  return {
    status: 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": INSPECTOR_CSP,
    },
    body: renderInspectorPage(data),
  };
}
