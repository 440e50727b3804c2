import { z } from "zod";
import { jsonObjectAt } from "./json-value";
import { PhoneNumber } from "./phone-number";
import { MAX_MESSAGES_PER_BATCH } from "./types";
import type * as wire from "./wire-types.generated";

export { MAX_MESSAGES_PER_BATCH };

/** A template's model sits at level 5 of the request: `{ messages: [ { template: { model } } ] }`. */
export const TEMPLATE_MODEL_LEVEL = 5;

export const MessageTemplate = z
  .strictObject({
    id: z.string().min(1, { error: "expected a non-empty template id" }).meta({ description: "The template's id, non-empty." }),
    model: jsonObjectAt(TEMPLATE_MODEL_LEVEL).meta({
      description:
        "Values substituted into the template: any JSON object (see `JsonObject` for what is refused), as deep as the request allows.",
    }),
  })
  .meta({ typeDescription: "A template reference: an existing template's id and the values substituted into it." });
export type MessageTemplate = wire.MessageTemplate;

export const Message = z
  .strictObject({
    tos: z
      .array(PhoneNumber)
      .min(1, { error: "expected at least one recipient" })
      .meta({ description: "Recipients in E.164 form (`+` then 7 to 15 digits, e.g. `+254712345678`), at least one." }),
    body: z
      .string()
      .min(1, { error: "expected non-empty message text" })
      .optional()
      .meta({ description: "The literal text, non-empty; exclusive with `template`." }),
    template: MessageTemplate.optional().meta({ description: "A template reference; exclusive with `body`." }),
  })
  .superRefine((message, ctx) => {
    const hasBody = message.body !== undefined;
    const hasTemplate = message.template !== undefined;
    if (hasBody === hasTemplate) {
      ctx.addIssue({
        code: "custom",
        path: hasBody ? ["template"] : [],
        message: hasBody ? "a message carries either body or template, not both" : "a message needs either body or template",
      });
    }
  })
  .meta({ typeDescription: "One message of a batch: recipients plus exactly one of a literal `body` or a `template`." });
export type Message = wire.Message;

// The spec shows only `transactional` and lists no others, so any non-empty name is sent as written.
export const Stream = z.string().min(1, { error: "expected a non-empty stream name such as 'transactional'" });

/** Request body of `POST /v1/message_batches`: 1–1,000 messages on one stream. */
export const MessageBatchRequest = z.strictObject({
  /** Stream name, e.g. `transactional`. */
  stream: Stream,
  /** The messages, 1–1,000. */
  messages: z
    .array(Message)
    .min(1, { error: "expected at least one message" })
    .max(MAX_MESSAGES_PER_BATCH, { error: `expected at most ${MAX_MESSAGES_PER_BATCH} messages per call` }),
});
export type MessageBatchRequest = wire.MessageBatchRequest;

/**
 * Response body of a batch: the spec does not show it, so it is parsed loosely;
 * `id` (the emulator's start with `msba_`) and `messages` are typed when present.
 */
export const MessageBatchResult = z.looseObject({
  /** The batch id (the emulator's start with `msba_`). */
  id: z.string().optional(),
  /** Per-message results, as the service sent them. */
  messages: z.array(z.unknown()).optional(),
});
export type MessageBatchResult = wire.MessageBatchResult;
