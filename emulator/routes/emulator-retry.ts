import { JSON_CONTENT_TYPE } from "../../schemas/http";
import { requireMediaType, jsonReply, type Reply } from "../http";
import type { EmulatorHandlers, RouteContext } from "./route-context";

/**
 * `POST /_emulator/deliveries/{id}/retry`: one more attempt of a delivery, now, with the
 * same event (same id) and a fresh signature. Answers 200 with the attempt's record; 404 for
 * an unknown id, 409 while an attempt is in flight.
 *
 * Requires `Content-Type: application/json` (any body, usually none, is ignored), as the
 * other state-changing `/_emulator/` routes do through their JSON bodies: a browser that has
 * the key cached for the inspector would otherwise let another site's form or `no-cors`
 * fetch trigger a redelivery (such requests cannot carry that type without a preflight,
 * which the emulator refuses). 415 otherwise.
 */
export async function retryDelivery({ req, params, deliveries }: RouteContext): Promise<Reply> {
  requireMediaType(req, JSON_CONTENT_TYPE);
  return jsonReply(200, await deliveries.redeliver(params.id));
}

/** This file's handlers of `EMULATOR_OPERATIONS`, by operation name. */
export const emulatorRetryHandlers = { retryDelivery } satisfies EmulatorHandlers;
