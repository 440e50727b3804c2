import type { IncomingMessage, ServerResponse } from "node:http";
import { PROBLEM_CONTENT_TYPE } from "../../schemas/problem";
import { createDeliveryHandler, type Answer } from "../core/delivery-handler";
import type { DeliveryContext, HandlerOptions } from "../core/handler-options";
import { readRawBody } from "./body";
import { nodeHmacProvider } from "./hmac";

/** What `onEvent` gets besides the event. */
export interface WebhookEventContext extends DeliveryContext<Buffer> {
  /** The incoming request (headers, URL); its body has been consumed. */
  readonly req: IncomingMessage;
}

/** Options of {@link createWebhookHandler}. */
export type WebhookHandlerOptions = HandlerOptions<WebhookEventContext>;

/**
 * A framework-free webhook receiver: a `node:http` request listener that reads the raw
 * body (capped), verifies the signature, parses the event, asks the replay guard and calls
 * `onEvent`. It shares its core with the Web handler (`createWebhookRequestHandler`), and
 * answers exactly as it does.
 *
 * Answers by the one table both handlers share (`receiver/core/webhook-outcome.ts`; listed in
 * docs/receivers.md): 204 once `onEvent` resolved or for a duplicate, 4xx for a request that
 * is not a verified event, 500 when `onEvent` threw, 503 while the same event is still in
 * `onEvent`. Error bodies are RFC 9457 problem details and never include a secret or an
 * expected signature.
 *
 * Use it with `http.createServer(handler)`, or mount it in a framework before any body
 * parser (it needs the body unparsed), or after `express.raw()` (it then takes the Buffer in
 * `req.body`). After a parser that left anything else it answers 500 saying so, and logs it.
 *
 * @throws ConfigurationError at creation when no secret is given, a secret is empty, or
 *   `toleranceSeconds`, `maxBodyBytes`, `headerName` or `replayGuard` is invalid.
 */
export function createWebhookHandler(options: WebhookHandlerOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const handle = createDeliveryHandler<IncomingMessage, Buffer, WebhookEventContext>(options, {
    hmac: nodeHmacProvider,
    method: (req) => req.method ?? "?",
    header: (req, name) => req.headers[name],
    readBody: readRawBody,
    discardBody: (req) => void req.resume(),
    context: (req, delivery) => ({ req, ...delivery }),
  });
  return async (req, res) => send(res, await handle(req));
}

function send(res: ServerResponse, answer: Answer): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  if (answer.status === 413) res.setHeader("Connection", "close"); // do not read the rest
  if (answer.problem === undefined) {
    res.end();
    return;
  }
  res.setHeader("Content-Type", PROBLEM_CONTENT_TYPE);
  res.end(JSON.stringify(answer.problem));
}
