import { JSON_CONTENT_TYPE } from "../../schemas/http";
import { requireMediaType, jsonReply, type Reply } from "../http";
import type { EmulatorHandlers, RouteContext } from "./route-context";

/**
 * Requires `Content-Type: application/json` though the body is ignored: a browser with the key
 * cached for the inspector would otherwise let another site's form or `no-cors` fetch trigger a
 * redelivery (that type needs a preflight, which the emulator refuses).
 */
export async function retryDelivery({ req, params, deliveries }: RouteContext): Promise<Reply> {
  requireMediaType(req, JSON_CONTENT_TYPE);
  return jsonReply(200, await deliveries.redeliver(params.id));
}

export const emulatorRetryHandlers = { retryDelivery } satisfies EmulatorHandlers;
