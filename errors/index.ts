export * from "./messaging-error";
export * from "./from-response";
export { connectionFailureKind } from "./connection-failure";
export type { ConnectionFailureKind } from "./connection-failure";
