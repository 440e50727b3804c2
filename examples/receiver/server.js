// A webhook receiver fed by the stack outputs of examples/webhooks:
//
//   export PAYMENTS_SIGNING_SECRET="$(pulumi stack output paymentsSigningSecret --show-secrets)"
//   node examples/receiver/server.js            # PORT=8080 by default
//
// Then point the endpoint's url at http://<host>:8080/webhooks/payments.
const http = require("node:http");
const { createWebhookHandler } = require("pulumi-messaging");

const secret = process.env.PAYMENTS_SIGNING_SECRET;
if (!secret) {
  console.error("Set PAYMENTS_SIGNING_SECRET (pulumi stack output paymentsSigningSecret --show-secrets).");
  process.exit(2);
}

const handlePayments = createWebhookHandler({
  // During a secret rotation, pass both: [newSecret, oldSecret].
  secret,
  onEvent: (event) => {
    if (event.type === "payment.succeeded") {
      console.log(`payment succeeded: event ${event.id}`, event.data.object);
    } else {
      console.log(`ignored event ${event.id} of type ${event.type ?? "(none)"}`);
    }
  },
});

const server = http.createServer((req, res) => {
  if (req.url === "/webhooks/payments") return handlePayments(req, res);
  res.writeHead(404).end();
});

server.listen(Number(process.env.PORT ?? 8080), process.env.HOST ?? "127.0.0.1", () => {
  const { address, port } = server.address();
  console.log(`receiver listening on http://${address}:${port}/webhooks/payments`);
});
process.on("SIGTERM", () => server.close());
