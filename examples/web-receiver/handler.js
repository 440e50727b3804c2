// A webhook receiver for any runtime with standard Request/Response and Web Crypto:
// Node ≥ 20, Deno, Bun, Cloudflare Workers, Next.js route handlers. No Node-only API.
//
//   Next.js (app/webhooks/payments/route.js):
//     const handle = createHandler({ secret: process.env.PAYMENTS_SIGNING_SECRET, onEvent });
//     export const POST = (request) => handle(request);
//   Cloudflare Workers / Deno / Bun:
//     export default { fetch: createHandler({ secret: env.PAYMENTS_SIGNING_SECRET, onEvent }) };
//     Deno.serve(createHandler({ ... }));   Bun.serve({ fetch: createHandler({ ... }) });
const {
  MemoryReplayGuard,
  isSignatureVerificationError,
  isValidationError,
  verifyWebhookRequest,
} = require("pulumi-messaging/receiver/web");

const problem = (status, title, detail, errors) =>
  new Response(JSON.stringify({ type: `urn:messaging:problem:${title}`, title, status, detail, ...(errors ? { errors } : {}) }), {
    status,
    headers: { "content-type": "application/problem+json" },
  });

/**
 * A `(request: Request) => Promise<Response>` handler: verifies the request, calls
 * `onEvent(event)` once per event id, answers 204; 401 for a bad signature, 400 for a body
 * that is not an event, 405 for anything but POST, 500 when `onEvent` fails (redelivered).
 */
function createHandler({ secret, onEvent, replayGuard = new MemoryReplayGuard() }) {
  return async function handle(request) {
    if (request.method !== "POST") return problem(405, "method_not_allowed", "webhooks are delivered with POST");
    let event;
    try {
      event = await verifyWebhookRequest(request, secret, { replayGuard });
    } catch (error) {
      if (isSignatureVerificationError(error)) {
        // A duplicate is authentic: answer 2xx so that the service stops redelivering.
        if (error.reason === "duplicate_event") return new Response(null, { status: 204 });
        return problem(401, error.reason, error.message);
      }
      if (isValidationError(error)) return problem(400, "invalid_event", error.message, error.fieldErrors);
      throw error;
    }
    try {
      await onEvent(event);
    } catch {
      await replayGuard.forget?.(event.id);
      return problem(500, "handler_failed", "the event handler failed");
    }
    return new Response(null, { status: 204 });
  };
}

module.exports = { createHandler };
