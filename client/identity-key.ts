import { createHmac, hkdfSync, type Hmac } from "node:crypto";

/** The client's identity key (internal: the symbol is not exported from the package). */
export const IDENTITY_KEY = Symbol("pulumi-messaging.identityKey");

/**
 * The key of every identity written where others may read it (state, journals, `Idempotency-Key`):
 * an unkeyed digest of a short text is reversed by guessing. Derived from the API key, so
 * identities are the same on every machine and release with nothing more to keep. Frozen:
 * pinned by golden tests.
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

  /** `label` tells the identities apart. */
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
 * The engine hands a provider no trace of an interrupted create, so one redone under a new key is sent again. A key the service
 * refused took nothing, and going back to it would be refused again: the advice is for a key the service accepted.
 */
export function keyChangedWarning(): string {
  return (
    "warning: the API key (messaging:apiKey or MESSAGING_API_KEY) changed since this stack's last deployment. Identities " +
    "are keyed by the API key, so a create that an interrupted run left unfinished under the old key (Pulumi said it was " +
    '"interrupted while creating") is redone under new identities, and the service sends again what it had taken. If the ' +
    "service refused the old key (HTTP 401), it took nothing under it: there is nothing to finish, go on. If it accepted the " +
    "old key and a run was interrupted, finish that run with the old key first (`pulumi up`), then change the key."
  );
}
