/** HTTP plumbing: reading and checking a request (API key, body, form, host, version, idempotency key, memory for bodies), writing the answer (replies, problems). */
export { assertAuthenticated, DEFAULT_EMULATOR_API_KEY } from "./auth";
export { type BodyResult, decodeUtf8, MAX_BODY_BYTES, parseJsonBody, readBody, readJsonBody, requireMediaType } from "./body";
export { parseFormBody } from "./form-body";
export { assertHostAllowed, hostAllowList, type HostAllowList, isHostName } from "./host-check";
export { DEFAULT_MAX_IN_FLIGHT_BYTES, type HeapFigures, MemoryGuard, type MemoryGuardOptions } from "./memory-guard";
export { checkIdempotencyKey, IdempotencyStore, keyInUseProblem, keyReusedProblem, requestFingerprint } from "./idempotency";
export { problem, ProblemError, problemReply, RETRY_AFTER_SECONDS, validationProblem } from "./problem-response";
export { isStreamed, jsonArrayStream, jsonReply, type Reply, type StreamedReply, writeReply, writeStreamedReply } from "./reply";
export { assertVersionHeader } from "./version-header";
