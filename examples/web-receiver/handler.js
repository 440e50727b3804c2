// A webhook receiver for any runtime with standard Request/Response and Web Crypto:
// Node ≥ 20, Deno, Bun, Cloudflare Workers, Next.js route handlers. No Node-only API.
//
//   Next.js (app/webhooks/payments/route.js):
//     const handle = createHandler({ secret: process.env.PAYMENTS_SIGNING_SECRET, onEvent });
//     export const POST = (request) => handle(request);
//   Cloudflare Workers / Deno / Bun:
//     export default { fetch: createHandler({ secret: env.PAYMENTS_SIGNING_SECRET, onEvent }) };
//     Deno.serve(createHandler({ ... }));   Bun.serve({ fetch: createHandler({ ... }) });
const { MemoryReplayGuard, createWebhookRequestHandler } = require("pulumi-messaging/receiver/web");

/**
 * A `(request: Request) => Promise<Response>` handler: verifies the request, calls
 * `onEvent(event)` once per event id, answers 204 (a duplicate too, without calling
 * `onEvent`); 401 for a bad signature, 400 for a body that is not an event, 405 for anything
 * but POST, 413 for a body over 1 MiB, 500 when `onEvent` fails (the service then redelivers).
 * The package's `createWebhookRequestHandler` does all of it; this adds a replay guard by default.
 */
function createHandler({ secret, onEvent, replayGuard = new MemoryReplayGuard() }) {
  return createWebhookRequestHandler({ secret, onEvent, replayGuard });
}

module.exports = { createHandler };
