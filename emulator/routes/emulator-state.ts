import { jsonReply, type Reply } from "../reply";
import type { RouteContext } from "../route-context";

/** `GET /_emulator/endpoints`: the webhook endpoints created, in order. */
export function listEndpoints({ store }: RouteContext): Reply {
  return jsonReply(200, store.endpoints());
}

/** `GET /_emulator/batches`: the accepted batches `{ id, stream, created, messages }`, in order. */
export function listBatches({ store }: RouteContext): Reply {
  return jsonReply(200, store.batches());
}

/** `GET /_emulator/deliveries`: every delivery attempt, in order. */
export function listDeliveries({ store }: RouteContext): Reply {
  return jsonReply(200, store.deliveries());
}
