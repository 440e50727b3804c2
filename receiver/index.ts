/**
 * Receiver helpers: sign and verify webhook requests, parse their events, serve them.
 * `createWebhookHandler` serves Node's `http` (and Express); `createWebhookRequestHandler` and
 * `verifyWebhookRequest` work on a standard `Request` with Web Crypto (any runtime; also in
 * `pulumi-messaging/receiver/web`); the others take Node's raw body (string or Buffer).
 */
export { SIGNATURE_HEADER } from "../schemas/http";
export { DEFAULT_TOLERANCE_SECONDS, signPayload, verifySignature } from "./signature";
export type { VerifySignatureOptions, VerifiedSignature } from "./signature";
export { parseSignatureHeader, formatSignatureHeader, MAX_SIGNATURE_ENTRIES } from "./signature-header";
export type { SignatureHeader } from "./signature-header";
export { parseEvent, parseWebhookPayload } from "./parse-event";
export type { ParsedPayload, CloudEventAttributes } from "./parse-event";
export { isEventType, isKnownEvent } from "./event-types";
export type { ParsedEvent, GenericEvent, EventOfType, IdentityVerificationCreatedEvent, PaymentSucceededEvent } from "./event-types";
export { constructEvent } from "./construct-event";
export { createWebhookHandler, DEFAULT_MAX_BODY_BYTES } from "./webhook-handler";
export type { WebhookHandlerOptions, WebhookEventContext } from "./webhook-handler";
export { createWebhookRequestHandler } from "./request-handler";
export type { WebhookRequestHandlerOptions, WebhookRequestContext } from "./request-handler";
export { verifyWebhookRequest } from "./verify-request";
export type { VerifyWebhookRequestOptions } from "./verify-request";
export type { ReceiverOptions } from "./receiver-settings";
export { MemoryReplayGuard } from "./replay-guard";
export type { ReplayGuard, ReplayClaim, MemoryReplayGuardOptions } from "./replay-guard";
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
