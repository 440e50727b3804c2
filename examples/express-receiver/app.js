// A webhook receiver in Express. The one rule: the webhook route gets the body as raw bytes
// (express.raw), because the signature is over the exact bytes sent. express.json() on the
// same request would leave a re-serializable object whose bytes can differ, and verification
// would fail (or, done on JSON.stringify(req.body), pass by luck only).
const express = require("express");
const {
  MemoryReplayGuard,
  constructEvent,
  isEventType,
  isSignatureVerificationError,
  isValidationError,
} = require("pulumi-messaging/receiver");

/**
 * The Express app: POST /webhooks/payments verified with `secret`; every other route may use
 * express.json() as usual. `onPayment(event)` is called once per event id.
 */
function createApp({ secret, onPayment }) {
  const app = express();
  const replayGuard = new MemoryReplayGuard();

  // Before any JSON parser, and only for this route: the raw body as a Buffer in req.body.
  app.post("/webhooks/payments", express.raw({ type: "*/*", limit: "1mb" }), async (req, res) => {
    let event;
    try {
      event = constructEvent(req.body, req.get("x-service-signature"), secret);
    } catch (error) {
      if (isSignatureVerificationError(error)) return res.status(401).json({ title: error.reason, detail: error.message });
      if (isValidationError(error)) return res.status(400).json({ title: "invalid_event", errors: error.fieldErrors });
      throw error;
    }
    if (replayGuard.seen(event.id)) return res.sendStatus(204); // processed before
    try {
      if (isEventType(event, "payment.succeeded")) await onPayment(event);
    } catch {
      replayGuard.forget(event.id); // let the service's redelivery be processed
      return res.status(500).json({ title: "handler_failed" });
    }
    return res.sendStatus(204);
  });

  // The rest of the application parses JSON as usual.
  app.use(express.json());
  app.post("/api/echo", (req, res) => res.json(req.body));
  return app;
}

module.exports = { createApp };

if (require.main === module) {
  const secret = process.env.PAYMENTS_SIGNING_SECRET;
  if (!secret) {
    console.error("Set PAYMENTS_SIGNING_SECRET (pulumi stack output paymentsSigningSecret --show-secrets).");
    process.exit(2);
  }
  const app = createApp({ secret, onPayment: (event) => console.log(`payment succeeded: event ${event.id}`) });
  const server = app.listen(Number(process.env.PORT ?? 8080), process.env.HOST ?? "127.0.0.1", () => {
    const { address, port } = server.address();
    console.log(`express receiver listening on http://${address}:${port}/webhooks/payments`);
  });
}
