/** The wire format, defined once: the client, the provider and the emulator all use these. */
export * from "./field-errors";
export * from "./json-value";
export * from "./strict-json";
export * from "./utf8-text";
export * from "./api-version";
export * from "./idempotency-key";
export * from "./phone-number";
export * from "./message-batch";
export { checkMessage, InvalidMessages, MAX_REPORTED_INVALID_MESSAGES, type ItemLocation, type MessageVerdict } from "./message-check";
export * from "./webhook-endpoint";
export * from "./problem";
export * from "./event";
export * from "./operations";
