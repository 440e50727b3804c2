/** HTTP plumbing: reading and checking a request (body, form, host, version, idempotency key), writing the answer (replies, problems). */
export { type BodyResult, decodeUtf8, MAX_BODY_BYTES, parseJsonBody, readBody, readJsonBody, requireMediaType } from "./body";
export { parseFormBody } from "./form-body";
export { assertHostAllowed, hostAllowList, type HostAllowList, isHostName } from "./host-check";
export { checkIdempotencyKey, IdempotencyStore, keyInUseProblem, keyReusedProblem, requestFingerprint } from "./idempotency";
export { problem, ProblemError, problemReply, RETRY_AFTER_SECONDS, validationProblem } from "./problem-response";
export { isStreamed, jsonArrayStream, jsonReply, type Reply, type StreamedReply, writeReply, writeStreamedReply } from "./reply";
export { assertVersionHeader } from "./version-header";
