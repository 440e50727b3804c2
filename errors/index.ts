export * from "./messaging-error";
export * from "./from-response";
