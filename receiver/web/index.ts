// The receiver helpers that need no Node-only module or type: for Workers without `nodejs_compat`, Deno, Bun, browsers, edges.
export { createWebhookRequestHandler } from "./handler";
export type { WebhookRequestHandlerOptions, WebhookRequestContext } from "./handler";
export { verifyWebhookRequest } from "./verify-request";
export type { VerifyWebhookRequestOptions } from "./verify-request";
export { DEFAULT_MAX_BODY_BYTES, DEFAULT_TOLERANCE_SECONDS } from "../core/settings";
export type { ReceiverOptions } from "../core/settings";
export type { VerifiedSignature } from "../core/signature-check";
export { MemoryReplayGuard } from "../core/replay-guard";
export type { ReplayGuard, ReplayClaim, MemoryReplayGuardOptions } from "../core/replay-guard";
export { parseEvent, parseWebhookPayload } from "../core/parse-event";
export type { ParsedPayload, CloudEventAttributes } from "../core/parse-event";
export { isEventType, isKnownEvent } from "../core/event-types";
export type { ParsedEvent, GenericEvent, EventOfType, IdentityVerificationCreatedEvent, PaymentSucceededEvent } from "../core/event-types";
export { parseSignatureHeader, formatSignatureHeader, MAX_SIGNATURE_ENTRIES } from "../core/signature-header";
export type { SignatureHeader } from "../core/signature-header";
export { SIGNATURE_HEADER } from "../../schemas/http";
export {
  SignatureVerificationError,
  ValidationError,
  ConfigurationError,
  BodyTooLargeError,
  isSignatureVerificationError,
  isValidationError,
  isConfigurationError,
  isBodyTooLargeError,
  isMessagingError,
} from "../../errors/messaging-error";
