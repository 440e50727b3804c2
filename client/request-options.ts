// No zod here: the client's declarations (and the root's) import this type, and must not reach zod's.
/** Per-call options. */
export interface RequestOptions {
  /**
   * The `Idempotency-Key` of this call (1–255 visible ASCII characters), reused on every retry.
   * Default: a random UUID. Pass your own to make a call safe to repeat across processes.
   */
  idempotencyKey?: string;
  /** Cancels the call (including waits between retries); it rejects with the signal's reason. */
  signal?: AbortSignal;
}
