/**
 * What identifies a message and a call of `messaging send` across runs (docs/architecture.md,
 * "Identity across runs"). Both are frozen: journals on users' disks and keys the service
 * remembers were made with them, so a change would send messages again. A new algorithm gets
 * a new version tag and leaves these as they are; test/cli/message-identity.test.ts pins them.
 */
import { createHash, hash, type Hash } from "node:crypto";
import { canonicalJson } from "../schemas/canonical-json";

/** Tag of the message identity algorithm below, written into every journal. */
export const MESSAGE_ID_VERSION = "m1";

/**
 * A message's identity (version `m1`): 32 hex digits of SHA-256 over its canonical JSON. What
 * the user means, not how it is written: key order and white space do not change it; any
 * change of recipient, text, template or model value does.
 */
export function messageId(message: unknown): string {
  // The first 16 bytes as hex: the same text as the first 32 digits of the hex digest, but a
  // string of its own (a slice would keep the 64-digit digest alive while the id is held).
  return hash("sha256", `pulumi-messaging message m1\n${canonicalJson(message)}`, "buffer").toString("hex", 0, 16);
}

/** What a call's key is made of, besides its messages. */
export interface CallKeyScope {
  /** `ms2`, or the user's `--idempotency-key-prefix`. */
  readonly prefix: string;
  readonly stream: string;
  /** `""` for a file's send; the id of a `--resend`. */
  readonly sendId: string;
}

/** A call planned: its key, size, and the digest of its messages' source texts. */
export interface PlannedCall {
  readonly key: string;
  readonly count: number;
  /** SHA-256 of its messages' source texts: the second pass checks it before the call goes out. */
  readonly sourceDigest: string;
}

/**
 * The idempotency key of a call being composed, built as its messages are read (version
 * `k2`): the prefix, `-`, and 32 hex digits of SHA-256 over the stream, the send id and each
 * message's position in the file and text as written. The same file sent again without a
 * journal to consult (a fresh CI runner) composes the same calls and so the same keys, and
 * the service answers them from its record; two calls of the same messages at other positions
 * (a file listing a message twice) get different keys.
 */
export class CallKey {
  count = 0;
  readonly #key: Hash;
  readonly #sources = createHash("sha256");

  constructor(private readonly scope: CallKeyScope) {
    this.#key = createHash("sha256").update(`pulumi-messaging call k2\n${scope.stream}\n${scope.sendId}\n`);
  }

  /** Adds the message at `ordinal` (from 0), as written in the file. */
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
