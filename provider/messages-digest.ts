/**
 * The digest a `MessageBatch` records of its messages, and by which `diff` tells whether they
 * changed. It is part of the state format: a digest that changed for the same messages would
 * make every recorded batch look changed, and be sent again. So each version is frozen here,
 * pinned by golden tests (test/provider/messages-digest.test.ts), and never edited.
 *
 * - v1, written since the digest was recorded: the SHA-256 hex of the messages' JSON with
 *   every object's keys sorted by UTF-16 code unit. A bare 64-digit hex string in state.
 * - legacy: what one earlier release wrote (the same, with keys sorted by `localeCompare`);
 *   read, never written.
 *
 * A future version must write a form v1 cannot be confused with (e.g. `v2:<hex>`) and keep
 * reading every form above.
 */
import { createHash, type Hash } from "node:crypto";
import { canonicalJson } from "../schemas/canonical-json";

// What the earlier release used: keys in the runtime's default collation, `undefined` as `null`.
const legacyJson = (value: unknown): string =>
  JSON.stringify(value ?? null, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );

const sha256Hex = (text: string): string => createHash("sha256").update(text).digest("hex");

/** The canonical JSON of a value (keys by code unit): how `diff` compares recorded inputs such as `triggers`. */
export const canonical = (value: unknown): string => canonicalJson(value);

/**
 * The digest this version writes (v1): over `schemas/canonical-json.ts`, whose text is frozen
 * and tested against the definition v1 was first written with. Frozen: see the module comment.
 */
export const messagesDigest = (messages: unknown): string => sha256Hex(canonicalJson(messages));

/**
 * The v1 digest of messages that arrive one at a time (a file read as a stream): the same text
 * as {@link messagesDigest} of the array, `[`, each message's canonical JSON with commas between,
 * `]`, hashed as it comes. So a batch from a file and an inline batch of the same messages have
 * the same digest, and moving messages from the program into a file (or back) changes nothing.
 */
export class MessagesDigest {
  readonly #hash: Hash = createHash("sha256").update("[");
  #count = 0;

  /** Adds the next message. */
  add(message: unknown): void {
    this.#hash.update(this.#count++ === 0 ? canonicalJson(message) : `,${canonicalJson(message)}`);
  }

  /** Messages added. */
  get count(): number {
    return this.#count;
  }

  /** The hex digest; the object is spent. */
  finish(): string {
    return this.#hash.update("]").digest("hex");
  }
}

/** The locale-ordered digest an earlier release wrote; read only, so its batches are not sent again. */
export const legacyLocaleDigest = (messages: unknown): string => sha256Hex(legacyJson(messages));

/** True when `recorded` (a digest from state) is a digest of `messages` in any form this package has written. */
export function digestMatches(recorded: string, messages: unknown): boolean {
  return recorded === messagesDigest(messages) || recorded === legacyLocaleDigest(messages);
}
