import type { IncomingMessage, ServerResponse } from "node:http";
import { PROBLEM_CONTENT_TYPE } from "../../schemas/problem";
import { createDeliveryHandler, type Answer } from "../core/delivery-handler";
import type { DeliveryContext, HandlerOptions } from "../core/handler-options";
import { readRawBody } from "./body";
import { nodeHmacProvider } from "./hmac";

export interface WebhookEventContext extends DeliveryContext<Buffer> {
  /** Its body has been consumed. */
  readonly req: IncomingMessage;
}

export type WebhookHandlerOptions = HandlerOptions<WebhookEventContext>;

/**
 * A `node:http` webhook listener: 204 once `onEvent` resolved or for a duplicate, 4xx for a request that is not a verified event,
 * 500 when `onEvent` threw, 503 while the same event is in `onEvent` (docs/receivers.md). Error bodies never include a secret or an
 * expected signature. Mount it before any body parser, or after `express.raw()`.
 * @throws ConfigurationError at creation for no usable secret or an invalid option.
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
