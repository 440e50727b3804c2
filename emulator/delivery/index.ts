/** Webhook deliveries: signing and sending an event, the retry policy, and the queue of attempts due. */
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
