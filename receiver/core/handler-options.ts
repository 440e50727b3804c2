import type { ParsedEvent } from "./event-types";
import type { ParsedPayload } from "./parse-event";
import type { ReceiverOptions } from "./settings";
import type { VerifiedSignature } from "./signature-check";

// The handlers' public types, written once so the two handlers cannot drift; apart from the flow so the declarations reach no zod.

/** What `onEvent` gets besides the event; each runtime adds its request. */
export interface DeliveryContext<Body extends Uint8Array> {
  /** The body exactly as received and verified. */
  readonly rawBody: Body;
  readonly signature: VerifiedSignature;
  readonly payload: ParsedPayload;
}

/** Options of `createWebhookHandler` and `createWebhookRequestHandler`. */
export interface HandlerOptions<Context> extends ReceiverOptions {
  /** The endpoint's signing secret (e.g. the `secret` output of a `WebhookEndpoint`), or several during a rotation. */
  readonly secret: string | readonly string[];
  /** Called once per verified event (once per event id with a `replayGuard`). Resolve to answer 204; throw to answer 500 (redelivery). */
  readonly onEvent: (event: ParsedEvent, context: Context) => void | Promise<void>;
  /** Called when a POST is not answered 204. Default: 500s go to `console.error`; 4xx are not logged. */
  readonly onError?: (error: unknown, status: number) => void;
}
