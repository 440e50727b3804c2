/**
 * The receiver helpers that need no Node-only module: for Cloudflare Workers (without
 * `nodejs_compat`), Deno, Bun, browsers and edge runtimes. `verifyWebhookRequest` verifies a
 * standard `Request` with Web Crypto; the rest parses events and guards against replays.
 * (`signPayload`, `verifySignature`, `constructEvent` and `createWebhookHandler` use
 * `node:crypto` / `node:http` and are in the main receiver module only.)
 */
export { verifyWebhookRequest, DEFAULT_MAX_BODY_BYTES } from "./verify-request";
export type { VerifyWebhookRequestOptions } from "./verify-request";
export { MemoryReplayGuard } from "./replay-guard";
export type { ReplayGuard, MemoryReplayGuardOptions } from "./replay-guard";
export { parseEvent, parseWebhookPayload } from "./parse-event";
export type { ParsedPayload, CloudEventAttributes } from "./parse-event";
export { isEventType, isKnownEvent } from "./event-types";
export type { ParsedEvent, GenericEvent, EventOfType, IdentityVerificationCreatedEvent, PaymentSucceededEvent } from "./event-types";
export { parseSignatureHeader, formatSignatureHeader } from "./signature-header";
export { DEFAULT_TOLERANCE_SECONDS } from "./signature-options";
export { BodyTooLargeError } from "./raw-body";
export { SIGNATURE_HEADER } from "../schemas/http";
export {
  SignatureVerificationError,
  ValidationError,
  ConfigurationError,
  isSignatureVerificationError,
  isValidationError,
  isConfigurationError,
} from "../errors/messaging-error";
