import type { ParsedEvent } from "./event-types";
import type { ParsedPayload } from "./parse-event";
import type { ReceiverOptions } from "./settings";
import type { VerifiedSignature } from "./signature-check";

// The handlers' public types, written once so that the Node and the Web handler cannot drift.
// Kept apart from the flow (`delivery-handler.ts`): what the packed declarations of the main
// receiver entry reach must not lead to zod's.

/** What `onEvent` gets besides the event, in every runtime; each adds its request (`req`, `request`). */
export interface DeliveryContext<Body extends Uint8Array> {
  /** The body exactly as received and verified. */
  readonly rawBody: Body;
  /** The signed timestamp and which secret matched. */
  readonly signature: VerifiedSignature;
  /** The format the event came in and, for CloudEvents, the envelope's attributes. */
  readonly payload: ParsedPayload;
}

/** Options of the handlers (`createWebhookHandler`, `createWebhookRequestHandler`): they differ only in `onEvent`'s context. */
export interface HandlerOptions<Context> extends ReceiverOptions {
  /** The endpoint's signing secret (e.g. the `secret` output of a `WebhookEndpoint`), or several during a rotation. */
  readonly secret: string | readonly string[];
  /**
   * Called once per verified, parsed event (once per event id with a `replayGuard`). Resolve
   * to answer 204; throw (or reject) to answer 500, so that the sender delivers again.
   */
  readonly onEvent: (event: ParsedEvent, context: Context) => void | Promise<void>;
  /**
   * Called when a POST is not answered 204, with the error and the status sent. Default:
   * 500s (a failing `onEvent`) are written to `console.error`; rejected requests (4xx) are
   * not logged.
   */
  readonly onError?: (error: unknown, status: number) => void;
}
