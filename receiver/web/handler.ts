import { PROBLEM_CONTENT_TYPE } from "../../schemas/problem";
import { createDeliveryHandler, type Answer } from "../core/delivery-handler";
import type { DeliveryContext, HandlerOptions } from "../core/handler-options";
import { assertWebRequest, readRequestBody } from "./body";
import { webCryptoHmacProvider } from "./hmac";

export interface WebhookRequestContext extends DeliveryContext<Uint8Array> {
  /** Its body has been consumed. */
  readonly request: Request;
}

export type WebhookRequestHandlerOptions = HandlerOptions<WebhookRequestContext>;

const WHO = "the webhook request handler";

/**
 * A webhook receiver for any runtime with `Request`/`Response` and Web Crypto. Answers as `createWebhookHandler` does
 * (docs/receivers.md).
 * @example
 * ```ts
 * const handle = createWebhookRequestHandler({ secret: env.SIGNING_SECRET, onEvent: (event) => … });
 * export default { fetch: handle };             // Cloudflare Workers, Bun
 * export const POST = handle;                   // Next.js route handler
 * ```
 * @throws ConfigurationError at creation for no usable secret or an invalid option.
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
