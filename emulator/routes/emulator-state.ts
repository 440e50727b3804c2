import type { z } from "zod";
import { addFieldError, toFieldErrors, type FieldErrors } from "../../schemas";
import { validationProblem, jsonArrayStream, jsonReply, type Reply, type StreamedReply } from "../http";
import type { EmulatorHandlers, RouteContext } from "./route-context";
import { EMULATOR_OPERATIONS } from "../operations";
import type { QuerySchema } from "../../schemas/operations";
import { serializeBatch } from "../storage";

/**
 * The query parsed with the operation's schema, once; into `errors`, every parameter the
 * schema does not name, given more than once, or refused by it (undefined then).
 */
function parseQuery<S extends QuerySchema>(schema: S, query: URLSearchParams, errors: FieldErrors): z.output<S> | undefined {
  const allowed = Object.keys(schema.shape);
  const given: Record<string, string> = {};
  for (const name of new Set(query.keys())) {
    if (!allowed.includes(name)) addFieldError(errors, name, `unknown query parameter; expected ${allowed.join(" or ") || "none"}`);
    else if (query.getAll(name).length > 1) addFieldError(errors, name, "given more than once");
    else given[name] = query.get(name) as string;
  }
  const parsed = schema.safeParse(given);
  if (!parsed.success)
    for (const [field, reasons] of Object.entries(toFieldErrors(parsed.error.issues))) addFieldError(errors, field, ...reasons);
  return parsed.success ? parsed.data : undefined;
}

/** `GET /_emulator/endpoints`: the webhook endpoints created, in order (streamed). */
export function listEndpoints({ store }: RouteContext): StreamedReply {
  // A snapshot of the list (not of the objects): the stream reads it across turns of the loop.
  return jsonArrayStream(store.endpoints().slice(), JSON.stringify);
}

/**
 * `GET /_emulator/batches[?limit=N][&after=ID]`: the stored batches `{ id, stream, created,
 * messages }`, oldest first; `after` starts after the batch with that id, `limit` (1–10,000)
 * caps the page. Streamed, so a large listing neither builds one huge string nor holds up
 * other requests. `X-Emulator-Batches-Accepted` and `X-Emulator-Messages-Accepted` give the
 * totals since start, evicted batches included.
 */
export function listBatches({ store, query }: RouteContext): StreamedReply {
  const errors: FieldErrors = {};
  const page = parseQuery(EMULATOR_OPERATIONS.listBatches.query, query, errors);
  const after = page?.after;
  if (after !== undefined && !store.batches.has(after)) {
    addFieldError(
      errors,
      "after",
      "no stored batch has this id (unknown, or evicted to stay within --max-stored-messages or --max-stored-bytes)",
    );
  }
  if (page === undefined || Object.keys(errors).length > 0) throw validationProblem(errors);
  const totals = store.batches.totals();
  return jsonArrayStream(store.batches.page(after, page.limit ?? Infinity), serializeBatch, {
    "X-Emulator-Batches-Accepted": String(totals.batches),
    "X-Emulator-Messages-Accepted": String(totals.messages),
    "X-Emulator-Stored-Bytes": String(store.storedBytes()),
  });
}

/**
 * `GET /_emulator/deliveries[?event=evt_…][&after=N]`: every delivery attempt kept, in order
 * (of one event; streamed). `X-Emulator-Attempts-Recorded` counts the attempts recorded since
 * start; `after` (an earlier listing's count) lists only those recorded since, so that a
 * follower (`messaging listen`) reads what is new rather than the whole list each time. A
 * count above the current one (another emulator since) lists everything kept.
 */
export function listDeliveries({ store, query }: RouteContext): StreamedReply {
  const errors: FieldErrors = {};
  const filter = parseQuery(EMULATOR_OPERATIONS.listDeliveries.query, query, errors);
  if (filter === undefined || Object.keys(errors).length > 0) throw validationProblem(errors);
  const { event, after = 0 } = filter;
  const attempts = store.deliveries();
  const recorded = store.storageTotals().evictedAttempts + attempts.length;
  const fresh = after > recorded ? attempts : attempts.slice(Math.max(0, attempts.length - (recorded - after)));
  return jsonArrayStream(event === undefined ? fresh.slice() : fresh.filter((attempt) => attempt.eventId === event), JSON.stringify, {
    "X-Emulator-Attempts-Recorded": String(recorded),
  });
}

/** `GET /_emulator/events`: the events emitted (the most recent 1,000), oldest first, with their delivery ids. */
export function listEvents({ store }: RouteContext): Reply {
  return jsonReply(200, store.events());
}

/** This file's handlers of `EMULATOR_OPERATIONS`, by operation name. */
export const emulatorStateHandlers = { listEndpoints, listBatches, listDeliveries, listEvents } satisfies EmulatorHandlers;
