import { MAX_MESSAGES_PER_BATCH, MessageBatchRequest, type Message } from "../../schemas";
import { isCertainlyValidMessage } from "../../schemas/message-check";

/**
 * The schema's output without running zod, when it is certain; otherwise undefined and the
 * schema judges. zod would copy each message (the bulk of what a batch allocates under load:
 * `npm run bench`, section 5) with its keys in the schema's order; the stored text is
 * `JSON.stringify`, so a message whose keys come in another order is left to the schema too.
 */
export function certainBatchRequest(value: unknown): MessageBatchRequest | undefined {
  if (!isPlainObject(value)) return undefined;
  let keys = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || (key !== "stream" && key !== "messages")) return undefined;
    keys++;
  }
  if (keys !== 2) return undefined;
  const { stream, messages } = value as { stream: unknown; messages: unknown };
  if (typeof stream !== "string" || stream.length === 0) return undefined;
  if (!Array.isArray(messages) || messages.length === 0 || messages.length > MAX_MESSAGES_PER_BATCH) return undefined;
  for (let i = 0; i < messages.length; i++) {
    const message: unknown = messages[i];
    if (!isCertainlyValidMessage(message) || !inSchemaOrder(message)) return undefined;
  }
  return { stream, messages: messages as Message[] };
}

/**
 * The object members of a batch {@link certainBatchRequest} returned, as its JSON text writes
 * them when no key repeats: `stream` and `messages`, then each message's two, a template's
 * `id` and `model` and the model's own.
 */
export function certainBatchMembers(request: MessageBatchRequest): number {
  let members = 2;
  for (const message of request.messages) {
    members += 2;
    if (message.template !== undefined) members += 2 + Object.keys(message.template.model).length;
  }
  return members;
}

// True when the message's keys come in the order zod's output gives them. It has exactly two
// (`isCertainlyValidMessage`), so `tos` first is enough; a template's are `id` and `model`.
function inSchemaOrder(message: Message): boolean {
  if (firstKey(message) !== "tos") return false;
  return message.template === undefined || firstKey(message.template) === "id";
}

function firstKey(value: object): string | undefined {
  for (const key in value) return key;
  return undefined;
}

function isPlainObject(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
