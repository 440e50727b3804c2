import { createHmac, hkdfSync, type Hmac } from "node:crypto";

/** The client's identity key (internal: the symbol is not exported from the package). */
export const IDENTITY_KEY = Symbol("pulumi-messaging.identityKey");

/**
 * The key of every identity this package writes where others may read it (version 2): a
 * `MessageBatch`'s id and key prefix in plain state, the message ids and call keys of a
 * `messaging send` journal, and the `Idempotency-Key` headers made of them. An unkeyed digest
 * of a short text is reversed by guessing (a 6-digit code in a known template: 10^6 tries);
 * keyed, a guess cannot be tested without the key.
 *
 * Derived from the API key (HKDF-SHA256), so the same key gives the same identities on every
 * machine, after a kill and in every release, with nothing more to keep; a new API key gives
 * new identities (docs/message-batch.md, "Rotating the API key"). Frozen: pinned by golden tests.
 */
export class IdentityKey {
  // Private: the key does not show in console.log, util.inspect or JSON.
  readonly #key: Buffer;

  private constructor(key: Buffer) {
    this.#key = key;
  }

  static fromApiKey(apiKey: string): IdentityKey {
    return new IdentityKey(Buffer.from(hkdfSync("sha256", apiKey, "", "pulumi-messaging identity v2", 32)));
  }

  /** An HMAC-SHA256 under this key, started with `label` (which tells the identities apart) and a newline. */
  hmac(label: string): Hmac {
    return createHmac("sha256", this.#key).update(`${label}\n`);
  }

  /** 32 hex digits (128 bits) of the HMAC of `text` under `label`. */
  digest(label: string, text: string): string {
    // A string of its own: a slice of the 64-digit hex digest would keep it alive while the id is held.
    return this.hmac(label).update(text).digest().toString("hex", 0, 16);
  }

  /** Tells whether two keys are the same, and reveals nothing of either: a journal records it. */
  get fingerprint(): string {
    return this.digest("pulumi-messaging key fingerprint", "");
  }
}

/**
 * What a stack is told when its API key changed since its last deployment: nothing can tell a
 * create that an interrupted run left unfinished from a new one (the engine hands a provider
 * no trace of it), and such a create redone under the new key's identities is sent again.
 */
export function keyChangedWarning(): string {
  return (
    "warning: the API key (messaging:apiKey or MESSAGING_API_KEY) changed since this stack's last deployment. Identities " +
    'are keyed by the API key, so a create that an interrupted run left unfinished (Pulumi said it was "interrupted while ' +
    'creating") is redone under new identities, and the service sends again what it had already taken. If a run of this ' +
    "stack was interrupted, set the old key back and run `pulumi up` to finish it, then change the key."
  );
}
