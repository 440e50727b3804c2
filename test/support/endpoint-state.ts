/** A webhook endpoint's recorded state, for the provider tests that build one by hand. */
import { WebhookEndpointState } from "../../provider/kinds/webhook-endpoint/schema";

/** Every field of the endpoint's state (create fields and outputs), null: as a half-made endpoint records what it never read. */
export const nullEndpointState = (): Record<string, null> =>
  Object.fromEntries(Object.keys(WebhookEndpointState.shape).map((key) => [key, null]));
