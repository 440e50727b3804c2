import { PROBLEM_CONTENT_TYPE } from "../../schemas/problem";
import { createDeliveryHandler, type Answer } from "../core/delivery-handler";
import type { DeliveryContext, HandlerOptions } from "../core/handler-options";
import { assertWebRequest, readRequestBody } from "./body";
import { webCryptoHmacProvider } from "./hmac";

/** What `onEvent` gets besides the event (Web handler). */
export interface WebhookRequestContext extends DeliveryContext<Uint8Array> {
  /** The incoming request (headers, URL); its body has been consumed. */
  readonly request: Request;
}

/** Options of {@link createWebhookRequestHandler}. */
export type WebhookRequestHandlerOptions = HandlerOptions<WebhookRequestContext>;

const WHO = "the webhook request handler";

/**
 * A webhook receiver for any runtime with standard `Request`/`Response` and Web Crypto
 * (Node ≥ 20, Deno, Bun, Cloudflare Workers, Next.js route handlers): a
 * `(request) => Promise<Response>` that reads the raw body (capped), verifies the signature,
 * parses the event, asks the replay guard and calls `onEvent`.
 *
 * Answers exactly as the Node handler (`createWebhookHandler`) does: 204 handled, or a
 * duplicate the replay guard had recorded as processed; 400 not an event (problem details
 * name the field); 401 signature did not verify (`title` is the reason); 405 not a POST; 413
 * body too large; 500 `onEvent` failed (the event is then forgotten by the guard, so the
 * redelivery is processed) or the body had already been read; 503 with `Retry-After` when
 * another delivery of the same event is still being processed (`event_in_progress`). Error bodies are RFC 9457 problem details
 * and never include a secret or an expected signature.
 *
 * @example
 * ```ts
 * const handle = createWebhookRequestHandler({ secret: env.SIGNING_SECRET, onEvent: (event) => … });
 * export default { fetch: handle };             // Cloudflare Workers, Bun
 * export const POST = handle;                   // Next.js route handler
 * ```
 * @throws ConfigurationError at creation when no secret is given, a secret is empty, or an
 *   option is invalid; the returned function rejects only for an argument that is not a Request.
 */
export function createWebhookRequestHandler(options: WebhookRequestHandlerOptions): (request: Request) => Promise<Response> {
  const handle = createDeliveryHandler<Request, Uint8Array, WebhookRequestContext>(options, {
    hmac: webCryptoHmacProvider,
    method: (request) => request.method,
    header: (request, name) => request.headers.get(name) ?? undefined,
    readBody: (request, maxBodyBytes) => readRequestBody(request, maxBodyBytes, WHO),
    discardBody: (request) => request.body?.cancel().catch(() => undefined),
    context: (request, delivery) => ({ request, ...delivery }),
  });
  return async (request) => {
    assertWebRequest(request, WHO);
    return toResponse(await handle(request));
  };
}

function toResponse(answer: Answer): Response {
  if (answer.problem === undefined) return new Response(null, { status: answer.status, headers: answer.headers });
  return new Response(JSON.stringify(answer.problem), {
    status: answer.status,
    headers: { "content-type": PROBLEM_CONTENT_TYPE, ...answer.headers },
  });
}
