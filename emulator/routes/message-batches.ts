import { MAX_MESSAGES_PER_BATCH, MessageBatchRequest, toFieldErrors } from "../../schemas";
import { textMembers } from "../../schemas/strict-json";
import { certainBatchMembers, certainBatchRequest } from "./batch-request";
import { readJsonBody, problem, validationProblem, jsonReply, type Reply } from "../http";
import { findVerbatimMessages, randomId, StoredText, type VerbatimMessages } from "../storage";
import type { OperationHandlers, RouteContext } from "./route-context";

/**
 * The emulator's answer to a batch (the spec does not show one): `{ id: "msba_…", stream,
 * created, messageCount }`. The messages are not echoed back: the caller has them, and
 * echoing (then keeping the echo for idempotent replays) cost more than the batch itself.
 */
export interface BatchResult {
  readonly id: string;
  readonly stream: string;
  readonly created: string;
  /** How many messages the batch holds. */
  readonly messageCount: number;
}

/**
 * `POST /v1/message_batches`: JSON body validated with `MessageBatchRequest`. Over 1,000
 * messages is 400 `batch_too_large` (a limit on the content, not on the bytes, hence not
 * 413); any other invalid field is 400 `validation_failed`. Both name every bad field.
 */
export function createMessageBatch({ req, body, store }: RouteContext): Reply {
  let certain: MessageBatchRequest | undefined;
  let verbatim: VerbatimMessages | undefined;
  // The common body is walked once for its shape and scanned once for its verbatim messages;
  // together they prove what the strict JSON reader's own walk and scan would (no repeated
  // key, every number exact), so those two are skipped. Anything else takes the usual path.
  const provenClean = (text: string, value: unknown): boolean => {
    certain = certainBatchRequest(value);
    if (certain === undefined) return false;
    verbatim = findVerbatimMessages(text, body);
    if (verbatim === undefined) return false;
    const before = textMembers(text.slice(0, verbatim.start));
    const after = textMembers(text.slice(verbatim.end));
    return before !== -1 && after !== -1 && before + verbatim.members + after === certainBatchMembers(certain);
  };
  const { value } = readJsonBody(req, body, { provenClean });
  // Set by provenClean, which ran on this very value unless the text was refused.
  const request = certain ?? parseBatchRequest(value);
  const batch = {
    id: randomId("msba_"),
    stream: request.stream,
    created: new Date().toISOString(),
    messageCount: request.messages.length,
    // Taken as parsed, the messages are in the body as JSON.stringify would write them, or not.
    messagesJson:
      verbatim === undefined || certain === undefined
        ? StoredText.of(JSON.stringify(request.messages))
        : StoredText.ofAscii(body, verbatim.start, verbatim.end),
  };
  store.addBatch(batch);
  const result: BatchResult = {
    id: batch.id,
    stream: batch.stream,
    created: batch.created,
    messageCount: batch.messageCount,
  };
  return jsonReply(200, result);
}

/** The body as the schema reads it, or the 400 naming every bad field. */
function parseBatchRequest(json: unknown): MessageBatchRequest {
  const parsed = MessageBatchRequest.safeParse(json);
  if (parsed.success) return parsed.data;
  const tooMany = parsed.error.issues.some((issue) => issue.code === "too_big" && issue.path.length === 1 && issue.path[0] === "messages");
  const errors = toFieldErrors(parsed.error.issues);
  if (tooMany) {
    const count = (json as { messages: unknown[] }).messages.length;
    throw problem(
      400,
      "batch_too_large",
      `A batch holds at most ${MAX_MESSAGES_PER_BATCH} messages; this request has ${count}. Send the rest in further batches.`,
      { errors },
    );
  }
  throw validationProblem(errors);
}

/** This file's handlers of `OPERATIONS`, by operation name (the router checks every operation has one). */
export const messageBatchHandlers = { sendMessageBatch: createMessageBatch } satisfies OperationHandlers;
