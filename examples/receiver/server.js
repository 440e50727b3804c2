// A webhook receiver (node:http) for both endpoints of examples/webhooks, fed by its stack outputs:
//
//   export PAYMENTS_SIGNING_SECRET="$(pulumi stack output paymentsSigningSecret --show-secrets)"
//   export IDENTITY_SIGNING_SECRET="$(pulumi stack output identitySigningSecret --show-secrets)"
//   node examples/receiver/server.js            # PORT=8080 by default
//
// The stack's endpoints post to <receiverBaseUrl>/payments (basic format) and
// <receiverBaseUrl>/identity (CloudEvents): set receiverBaseUrl to http://<host>:8080/webhooks.
const http = require("node:http");
const { MemoryReplayGuard, createWebhookHandler, isEventType } = require("pulumi-messaging/receiver");

const ENDPOINTS = {
  "/webhooks/payments": { variable: "PAYMENTS_SIGNING_SECRET", output: "paymentsSigningSecret" },
  "/webhooks/identity": { variable: "IDENTITY_SIGNING_SECRET", output: "identitySigningSecret" },
};

const missing = Object.values(ENDPOINTS).filter(({ variable }) => !process.env[variable]);
if (missing.length > 0) {
  for (const { variable, output } of missing) {
    console.error(`Set ${variable} (pulumi stack output ${output} --show-secrets).`);
  }
  process.exit(2);
}

function onPayment(event) {
  if (isEventType(event, "payment.succeeded")) {
    console.log(`payment succeeded: event ${event.id}`, JSON.stringify(event.data.object));
  } else {
    console.log(`payments: ignored event ${event.id} of type ${event.type ?? "(none)"}`);
  }
}

function onIdentity(event) {
  if (isEventType(event, "identity.verification.created")) {
    console.log(`identity verification created: event ${event.id}`, JSON.stringify(event.data.object));
  } else {
    console.log(`identity: ignored event ${event.id} of type ${event.type ?? "(none)"}`);
  }
}

// Each event is processed once: the service delivers again when an answer is lost.
const handlers = {
  "/webhooks/payments": createWebhookHandler({
    // During a secret rotation, pass both: [newSecret, oldSecret].
    secret: process.env.PAYMENTS_SIGNING_SECRET,
    replayGuard: new MemoryReplayGuard(),
    onEvent: onPayment,
  }),
  "/webhooks/identity": createWebhookHandler({
    secret: process.env.IDENTITY_SIGNING_SECRET,
    replayGuard: new MemoryReplayGuard(),
    onEvent: onIdentity,
  }),
};

const server = http.createServer((req, res) => {
  const handler = handlers[(req.url ?? "").split("?")[0]];
  if (handler) return handler(req, res);
  res.writeHead(404).end();
});

server.listen(Number(process.env.PORT ?? 8080), process.env.HOST ?? "127.0.0.1", () => {
  const { address, port } = server.address();
  console.log(`receiver listening on http://${address}:${port}/webhooks (payments, identity)`);
});
process.on("SIGTERM", () => server.close());
