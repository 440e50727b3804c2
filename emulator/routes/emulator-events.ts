import { z } from "zod";
import { EventType, toFieldErrors } from "../../schemas";
import { parseJsonBody } from "../body";
import { deliverEvent } from "../deliveries";
import { buildEvent } from "../events";
import { validationProblem } from "../problem-response";
import { jsonReply, type Reply } from "../reply";
import type { RouteContext } from "../route-context";

/** Body of `POST /_emulator/events`. */
const EmitEventRequest = z.strictObject({
  /** Event type, e.g. `payment.succeeded`. */
  type: EventType,
  /** Becomes `data.object` of the event; `{}` when omitted. */
  data: z.record(z.string(), z.unknown()).optional(),
});

/**
 * `POST /_emulator/events`: builds an event and delivers it, once and concurrently, to every
 * endpoint subscribed to its type. Answers 200 with the delivery records (an empty array when
 * nobody subscribes); failed deliveries are records too, not errors.
 */
export async function emitEvent({ req, body, store, closing }: RouteContext): Promise<Reply> {
  const parsed = EmitEventRequest.safeParse(parseJsonBody(req, body));
  if (!parsed.success) throw validationProblem(toFieldErrors(parsed.error.issues));
  const event = buildEvent(parsed.data.type, parsed.data.data);
  const deliveries = await Promise.all(
    store.subscribersOf(parsed.data.type).map((endpoint) => deliverEvent(endpoint, event, { signal: closing })),
  );
  store.addDeliveries(deliveries);
  return jsonReply(200, deliveries);
}
