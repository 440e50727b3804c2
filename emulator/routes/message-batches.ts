import { MAX_MESSAGES_PER_BATCH, MessageBatchRequest, toFieldErrors } from "../../schemas";
import { certainBatchRequest } from "./batch-request";
import { readJsonBody, problem, validationProblem, jsonReply, type Reply } from "../http";
import { randomId, verbatimMessagesText, StoredText } from "../storage";
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
  const { text, value } = readJsonBody(req, body);
  const certain = certainBatchRequest(value);
  const request = certain ?? parseBatchRequest(value);
  // Taken as parsed, the messages are in the body as JSON.stringify would write them, or not.
  const verbatim = certain === undefined ? undefined : verbatimMessagesText(text, body);
  const batch = {
    id: randomId("msba_"),
    stream: request.stream,
    created: new Date().toISOString(),
    messageCount: request.messages.length,
    messagesJson: verbatim ?? StoredText.of(JSON.stringify(request.messages)),
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
