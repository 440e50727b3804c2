// Receiver helpers: sign and verify webhook requests, parse their events, serve them. `core/` holds what every runtime shares,
// `node/` and `web/` the adapters; `web/` is also `pulumi-messaging/receiver/web`.
export { SIGNATURE_HEADER } from "../schemas/http";
export { signPayload, verifySignature } from "./node/signature";
export type { VerifySignatureOptions } from "./node/signature";
export { DEFAULT_MAX_BODY_BYTES, DEFAULT_TOLERANCE_SECONDS } from "./core/settings";
export type { ReceiverOptions } from "./core/settings";
export type { VerifiedSignature } from "./core/signature-check";
export { parseSignatureHeader, formatSignatureHeader, MAX_SIGNATURE_ENTRIES } from "./core/signature-header";
export type { SignatureHeader } from "./core/signature-header";
export { parseEvent, parseWebhookPayload } from "./core/parse-event";
export type { ParsedPayload, CloudEventAttributes } from "./core/parse-event";
export { isEventType, isKnownEvent } from "./core/event-types";
export type { ParsedEvent, GenericEvent, EventOfType, IdentityVerificationCreatedEvent, PaymentSucceededEvent } from "./core/event-types";
export { constructEvent } from "./node/construct-event";
export { createWebhookHandler } from "./node/handler";
export type { WebhookHandlerOptions, WebhookEventContext } from "./node/handler";
export { createWebhookRequestHandler } from "./web/handler";
export type { WebhookRequestHandlerOptions, WebhookRequestContext } from "./web/handler";
export { verifyWebhookRequest } from "./web/verify-request";
export type { VerifyWebhookRequestOptions } from "./web/verify-request";
export { MemoryReplayGuard } from "./core/replay-guard";
export type { ReplayGuard, ReplayClaim, MemoryReplayGuardOptions } from "./core/replay-guard";
export {
  SignatureVerificationError,
  isSignatureVerificationError,
  ValidationError,
  isValidationError,
  ConfigurationError,
  isConfigurationError,
  BodyTooLargeError,
  isBodyTooLargeError,
  isMessagingError,
} from "../errors/messaging-error";
