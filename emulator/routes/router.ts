import { OPERATIONS, type OperationName } from "../../schemas/operations";
import { EMULATOR_OPERATIONS, type EmulatorOperationName } from "../operations";
import type { RouteHandler } from "./route-context";
import { emulatorEventHandlers } from "./emulator-events";
import { emulatorFaultHandlers } from "./emulator-faults";
import { emulatorRetryHandlers } from "./emulator-retry";
import { emulatorStateHandlers } from "./emulator-state";
import { showInspector } from "./inspector";
import { messageBatchHandlers } from "./message-batches";
import { webhookEndpointHandlers } from "./webhook-endpoints";

/**
 * The one answer to "is this a request to the service's API?": a `/v1` path. Those are the
 * requests that are counted, need the version header, meet injected faults and idempotency.
 * Everything else (`/_emulator/…`) is the emulator's own inspection and control.
 */
export function isApiPath(path: string): boolean {
  return path === "/v1" || path.startsWith("/v1/");
}

/**
 * The emulator's handler of each API operation, gathered from the files of `routes/` (a new
 * handler is named where it is written); the type makes the compiler refuse an operation
 * without one. The table's row gives its method and path.
 */
const OPERATION_HANDLERS: { readonly [Name in OperationName]: RouteHandler } = {
  ...webhookEndpointHandlers,
  ...messageBatchHandlers,
};

/** The emulator's handler of each of its own operations (`/_emulator/…`), gathered the same way. */
const EMULATOR_HANDLERS: { readonly [Name in EmulatorOperationName]: RouteHandler } = {
  ...emulatorStateHandlers,
  ...emulatorEventHandlers,
  ...emulatorRetryHandlers,
  ...emulatorFaultHandlers,
};

type Route = { readonly template: string; readonly methods: Readonly<Record<string, RouteHandler>> };

/** A route with its template split once: each segment a literal, or the name of a `{name}` parameter. */
type CompiledRoute = Route & { readonly segments: ReadonlyArray<{ readonly literal: string } | { readonly param: string }> };

/** The routes of a table of operations, operations on one path sharing a route. */
function routesOf<Name extends string>(
  table: Readonly<Record<Name, { readonly method: string; readonly path: string }>>,
  handlers: Readonly<Record<Name, RouteHandler>>,
): Route[] {
  const byPath = new Map<string, Record<string, RouteHandler>>();
  for (const name of Object.keys(table) as Name[]) {
    const { method, path } = table[name];
    const methods = byPath.get(path) ?? {};
    methods[method] = handlers[name];
    byPath.set(path, methods);
  }
  return [...byPath].map(([template, methods]) => ({ template, methods }));
}

/**
 * Every route: a path template (`{name}` matches one segment) and its handlers by method.
 * The inspector page is HTML for a browser, not an operation of either table.
 */
const ROUTES: ReadonlyArray<CompiledRoute> = [
  ...routesOf(OPERATIONS, OPERATION_HANDLERS),
  { template: "/_emulator", methods: { GET: showInspector } },
  { template: "/_emulator/", methods: { GET: showInspector } },
  ...routesOf(EMULATOR_OPERATIONS, EMULATOR_HANDLERS),
].map((route) => ({
  ...route,
  segments: route.template.split("/").map((segment) => {
    const name = /^\{(\w+)\}$/.exec(segment)?.[1];
    return name === undefined ? { literal: segment } : { param: name };
  }),
}));

/** Result of {@link matchRoute}. */
export type RouteMatch =
  | { readonly kind: "found"; readonly handler: RouteHandler; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: "method_not_allowed"; readonly allow: string[] }
  | { readonly kind: "not_found" };

// The route's `{name}` values when the path's segments fit its template, else undefined.
function fit(route: CompiledRoute, got: readonly string[]): Record<string, string> | undefined {
  const want = route.segments;
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const segment = want[i];
    if ("param" in segment && got[i] !== "") params[segment.param] = got[i];
    else if (!("literal" in segment) || segment.literal !== got[i]) return undefined;
  }
  return params;
}

/** Finds the handler for a method and path (the path without its query string). */
export function matchRoute(method: string, path: string): RouteMatch {
  const segments = path.split("/");
  for (const route of ROUTES) {
    const params = fit(route, segments);
    if (params === undefined) continue;
    const handler = Object.prototype.hasOwnProperty.call(route.methods, method) ? route.methods[method] : undefined;
    if (handler === undefined) return { kind: "method_not_allowed", allow: Object.keys(route.methods) };
    return { kind: "found", handler, params };
  }
  return { kind: "not_found" };
}
