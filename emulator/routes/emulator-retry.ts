import { jsonReply, type Reply } from "../reply";
import type { RouteContext } from "../route-context";

/**
 * `POST /_emulator/deliveries/{id}/retry`: one more attempt of a delivery, now, with the
 * same event (same id) and a fresh signature. Answers 200 with the attempt's record; 404 for
 * an unknown id, 409 while an attempt is in flight.
 */
export async function retryDelivery({ params, deliveries }: RouteContext): Promise<Reply> {
  return jsonReply(200, await deliveries.redeliver(params.id));
}
