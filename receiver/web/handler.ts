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
 * Answers exactly as the Node handler (`createWebhookHandler`) does, by the same table
 * (`receiver/core/webhook-outcome.ts`; listed in docs/receivers.md).
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
