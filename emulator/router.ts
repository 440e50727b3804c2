import { MESSAGE_BATCHES_PATH, WEBHOOK_ENDPOINTS_PATH } from "../schemas/http";
import type { RouteHandler } from "./route-context";
import { getFaults, setFaults } from "./routes/emulator-faults";
import { emitEvent } from "./routes/emulator-events";
import { listBatches, listDeliveries, listEndpoints } from "./routes/emulator-state";
import { createMessageBatch } from "./routes/message-batches";
import { createWebhookEndpoint } from "./routes/webhook-endpoints";

/**
 * `api`: the service's routes (version header required, faults and idempotency apply).
 * `emulator`: inspection and control routes under `/_emulator/`.
 */
export type RouteScope = "api" | "emulator";

interface Route {
  readonly scope: RouteScope;
  readonly methods: Readonly<Record<string, RouteHandler>>;
}

/** Every route, by exact path (no trailing slash). */
const ROUTES: Readonly<Record<string, Route>> = {
  [WEBHOOK_ENDPOINTS_PATH]: { scope: "api", methods: { POST: createWebhookEndpoint } },
  [MESSAGE_BATCHES_PATH]: { scope: "api", methods: { POST: createMessageBatch } },
  "/_emulator/endpoints": { scope: "emulator", methods: { GET: listEndpoints } },
  "/_emulator/batches": { scope: "emulator", methods: { GET: listBatches } },
  "/_emulator/deliveries": { scope: "emulator", methods: { GET: listDeliveries } },
  "/_emulator/events": { scope: "emulator", methods: { POST: emitEvent } },
  "/_emulator/faults": { scope: "emulator", methods: { GET: getFaults, POST: setFaults } },
};

/** Result of {@link matchRoute}. */
export type RouteMatch =
  | { readonly kind: "found"; readonly scope: RouteScope; readonly handler: RouteHandler }
  | { readonly kind: "method_not_allowed"; readonly allow: string[] }
  | { readonly kind: "not_found" };

/** Finds the handler for a method and path. */
export function matchRoute(method: string, path: string): RouteMatch {
  const route = Object.prototype.hasOwnProperty.call(ROUTES, path) ? ROUTES[path] : undefined;
  if (route === undefined) return { kind: "not_found" };
  const handler = route.methods[method];
  if (handler === undefined) return { kind: "method_not_allowed", allow: Object.keys(route.methods) };
  return { kind: "found", scope: route.scope, handler };
}

/** True for paths of the service's API (`/v1…`), the ones counted, versioned and faulted. */
export function isApiPath(path: string): boolean {
  return path === "/v1" || path.startsWith("/v1/");
}
