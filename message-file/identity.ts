/**
 * Identities of `messaging send` across runs. Each version is frozen: journals on users' disks
 * and keys the service remembers were made with them, so a change would send messages again.
 * test/cli/message-identity.test.ts pins them.
 */
import { createHash, hash, type Hash, type Hmac } from "node:crypto";
import type { IdentityKey } from "../client/identity-key";
import { canonicalJson } from "../schemas/canonical-json";

/** Message identity versions: `m2` is written; `m1`, unkeyed, is read in the journals of earlier releases. */
export type MessageIdVersion = "m1" | "m2";

/**
 * Over the canonical JSON: key order and white space do not change it. `m2` is keyed, so a
 * journal does not give its messages away to whoever guesses them.
 */
export function messageIdentity(version: MessageIdVersion, key: IdentityKey): (message: unknown) => string {
  if (version === "m1") {
    // A string of its own: a slice would keep the 64-digit digest alive while the id is held.
    return (message) => hash("sha256", `pulumi-messaging message m1\n${canonicalJson(message)}`, "buffer").toString("hex", 0, 16);
  }
  return (message) => key.digest("pulumi-messaging message m2", canonicalJson(message));
}

export interface CallKeyScope {
  readonly key: IdentityKey;
  /** `ms3`, or the user's `--idempotency-key-prefix`. */
  readonly prefix: string;
  readonly stream: string;
  /** `""` for a file's send; the id of a `--resend`. */
  readonly sendId: string;
}

export interface PlannedCall {
  readonly key: string;
  readonly count: number;
  /** SHA-256 of its messages' source texts: the second pass checks it before the call goes out. */
  readonly sourceDigest: string;
}

/**
 * A call's idempotency key, over the stream, the send id and each message's position and
 * source. The same file sent again without a journal (a fresh CI runner) composes the same
 * keys, which the service answers from its record; the same messages at other positions (a
 * file listing a message twice) get different keys.
 */
export class CallKey {
  count = 0;
  readonly #key: Hmac;
  readonly #sources: Hash = createHash("sha256");

  constructor(private readonly scope: CallKeyScope) {
    this.#key = scope.key.hmac("pulumi-messaging call k3").update(`${scope.stream}\n${scope.sendId}\n`);
  }

  add(ordinal: number, source: string): void {
    // The length (UTF-16 code units) keeps texts holding newlines from running into each other.
    this.#key.update(`${ordinal}:${source.length}:`).update(source).update("\n");
    this.#sources.update(source).update("\n");
    this.count++;
  }

  finish(): PlannedCall {
    return {
      key: `${this.scope.prefix}-${this.#key.digest("hex").slice(0, 32)}`,
      count: this.count,
      sourceDigest: this.#sources.digest("hex"),
    };
  }
}

/** Characters a call key adds after its prefix: `-` and 32 hex digits. */
export const CALL_KEY_SUFFIX_LENGTH = 33;
