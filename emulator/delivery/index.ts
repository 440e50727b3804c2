/** Webhook deliveries: the event and its payload, signing and sending it, the retry policy, and the queue of attempts due. */
export { DELIVERY_TIMEOUT_MS, deliveryHeaders } from "./deliveries";
export {
  type AttemptVerdict,
  checkRetrySchedule,
  classifyAttempt,
  DEFAULT_DELIVERY_RETRY_SCHEDULE,
  parseRetrySchedule,
  retryDelaySeconds,
} from "./delivery-policy";
export { DeliveryQueue } from "./delivery-queue";
export { buildEvent, CLOUD_EVENT_SOURCE, eventData, eventPayload, type EventPayload } from "./events";
