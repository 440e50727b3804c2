/** The WebhookEndpoint kind: its schemas and runtime, as every consumer reads them. */
import { defineKind } from "../define-kind";
import { check, create, diff, migrate, read, remove, update } from "./runtime";
import { WebhookEndpointInputs, WebhookEndpointState } from "./schema";

export const webhookEndpoint = defineKind({
  name: "WebhookEndpoint",
  description:
    "A webhook endpoint of the messaging service (`POST /v1/webhooks/endpoints`). The service has no update, delete or " +
    "retrieve operation: any change replaces the endpoint (except an adopted one's, which is refused), deleting it from the " +
    "stack leaves it active in the service (remove it in the dashboard, Developers → Webhooks), refresh keeps the recorded " +
    "state, and import is refused: use `adopt`. If the create's answer had an id but no readable secret, `up` fails and " +
    "keeps the endpoint without one; the next `up` asks the service again under the same idempotency key, or says what to do.",
  inputs: WebhookEndpointInputs,
  state: WebhookEndpointState,
  methods: { check, create, diff, read, update, remove, migrate },
});
