/** Answering a request: the checks every request meets, the router over both operation tables, and one handler per operation. */
export { bodyWillBeRefused, handleRequest } from "./handle-request";
export type { BatchResult } from "./message-batches";
