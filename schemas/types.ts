/**
 * The wire format's TypeScript types, written out without zod.
 *
 * The zod schemas beside this file stay the source of truth: each schema file checks at
 * compile time that its schema parses to exactly the type declared here (see `same-type.ts`),
 * so the two cannot drift. The types live apart so that the declaration files of the package
 * root, `pulumi-messaging/client` and `pulumi-messaging/receiver` never load zod's own
 * declarations, which fail to type-check under the `tsconfig.json` that `pulumi new
 * typescript` writes (`moduleResolution: node`, no `esModuleInterop`, no `skipLibCheck`).
 * Only `pulumi-messaging/schemas` exposes zod types.
 */

/** The most messages one `POST /v1/message_batches` call accepts (spec §8). */
export const MAX_MESSAGES_PER_BATCH = 1000;

/** A template reference: an existing template's id and the values substituted into it. */
export interface MessageTemplate {
  /** The template's id, non-empty. */
  id: string;
  /** Values substituted into the template, by name. */
  model: Record<string, unknown>;
}

/** One message of a batch: recipients plus exactly one of a literal `body` or a `template`. */
export interface Message {
  /** Recipients in E.164 form (`+254712345678`), at least one. */
  tos: string[];
  /** The literal text, non-empty; exclusive with `template`. */
  body?: string;
  /** A template reference; exclusive with `body`. */
  template?: MessageTemplate;
}

/** Request body of `POST /v1/message_batches`: 1–1,000 messages on one stream. */
export interface MessageBatchRequest {
  /** Stream name, e.g. `transactional`. */
  stream: string;
  /** The messages, 1–1,000. */
  messages: Message[];
}

/** Response body of a batch (not shown by the spec): `id` and `messages` typed when present. */
export interface MessageBatchResult {
  [key: string]: unknown;
  /** The batch id (the emulator's start with `msba_`). */
  id?: string;
  /** Per-message results, as the service sent them. */
  messages?: unknown[];
}

/** Notification formats of a webhook endpoint. */
export type WebhookFormat = "basic" | "cloudEvents";

/** What a caller passes to create a webhook endpoint. */
export interface WebhookEndpointCreateInput {
  /** Absolute http(s) URL events are delivered to. */
  url: string;
  /** Event types to subscribe to, at least one. */
  events: string[];
  /** Payload format. Default `basic`. */
  format?: WebhookFormat;
  /** Free text shown in the dashboard. */
  description?: string;
}

/** A webhook endpoint creation after validation: `format` is filled in. */
export interface WebhookEndpointCreate extends WebhookEndpointCreateInput {
  format: WebhookFormat;
}

/**
 * The webhook endpoint object as the client reads it: `id` (prefix `we_`) and `secret`
 * always; every other field of the spec's object may be missing or null. Extra fields are kept.
 */
export interface WebhookEndpointObject {
  [key: string]: unknown;
  id: string;
  secret: string;
  created?: string | null;
  updated?: string | null;
  format?: string | null;
  workspace?: string | null;
  live?: boolean | null;
  etag?: string | null;
  events?: string[] | null;
  description?: string | null;
  status?: string | null;
  url?: string | null;
  metadata?: Record<string, string> | null;
}

/** RFC 9457 problem details: `title` is a stable code, `errors` maps a field path to its messages. */
export interface Problem {
  [key: string]: unknown;
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  errors?: Record<string, string[]>;
}

/** Event types the spec names. Any other type parses as a generic event. */
export const KNOWN_EVENT_TYPES = ["identity.verification.created", "payment.succeeded"] as const;
/** One of {@link KNOWN_EVENT_TYPES}. */
export type KnownEventType = (typeof KNOWN_EVENT_TYPES)[number];

/** `data` of an event: the related object and, for changes, its previous values. */
export interface EventData {
  [key: string]: unknown;
  object: Record<string, unknown>;
  previous?: Record<string, unknown> | null;
}

/** The API request that caused an event. */
export interface EventRequest {
  [key: string]: unknown;
  id?: string | null;
  idempotency_key?: string | null;
}

/** The basic event object. The spec's sample payload has no `type`, so it is optional. */
export interface MessagingEvent {
  [key: string]: unknown;
  id: string;
  type?: string;
  created: string;
  data: EventData;
  request?: EventRequest;
}

/** An event of a named type: `type` narrows it. */
export type KnownEvent = { [T in KnownEventType]: MessagingEvent & { type: T } }[KnownEventType];

/** CloudEvents 1.0, structured JSON mode: the event object travels in `data`. */
export interface CloudEventEnvelope {
  [key: string]: unknown;
  specversion: "1.0";
  id: string;
  source: string;
  type: string;
  time?: string;
  datacontenttype?: string;
  data: MessagingEvent;
}
