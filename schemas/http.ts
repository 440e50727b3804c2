// Header names are lower-case, as Node's `req.headers` and undici's response headers hold them.

/** Request header carrying the API version, a date `YYYY-MM-DD` (spec §9). */
export const VERSION_HEADER = "x-service-version";
/** Request header carrying the idempotency key of a POST (see `IdempotencyKey`). */
export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";
/** Response header set to `true` when a POST was answered from its idempotency record: its effect did not happen again. */
export const IDEMPOTENT_REPLAYED_HEADER = "idempotent-replayed";
/** Header carrying a webhook delivery's signature, `t=<unix seconds>,sha256=<hex>` (our assumption: the spec shows none). */
export const SIGNATURE_HEADER = "x-service-signature";
/** Response header carrying the service's id of the request. */
export const REQUEST_ID_HEADER = "x-request-id";

/** Media type of JSON request and response bodies. */
export const JSON_CONTENT_TYPE = "application/json";
/** Media type of form-encoded request bodies (the webhook endpoint creation). */
export const FORM_CONTENT_TYPE = "application/x-www-form-urlencoded";

/** Largest request body, in bytes. The spec sets no limit; this is the emulator's (larger bodies get 413). */
export const MAX_REQUEST_BODY_BYTES = 10 * 1024 * 1024;
