/**
 * The digest a `MessageBatch` records of its messages, by which `diff` tells whether they changed. Part of the state format: a
 * digest that changed for the same messages would send every recorded batch again, so each form is frozen (golden tests pin them).
 * v1 is written (bare SHA-256 hex of the canonical JSON); legacy (keys by `localeCompare`) is only read, as old state holds it.
 * A new form must not be confusable with v1 (e.g. `v2:<hex>`), and every form above stays readable.
 */
import { createHash, type Hash } from "node:crypto";
import { canonicalJson } from "../schemas/canonical-json";

const legacyJson = (value: unknown): string =>
  JSON.stringify(value ?? null, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );

const sha256Hex = (text: string): string => createHash("sha256").update(text).digest("hex");

/** The canonical JSON of a value (keys by code unit): how `diff` compares recorded inputs such as `triggers`. */
export const canonical = (value: unknown): string => canonicalJson(value);

/** The v1 digest. */
export const messagesDigest = (messages: unknown): string => sha256Hex(canonicalJson(messages));

/** The v1 digest of messages streamed one at a time: the same as {@link messagesDigest}, so moving messages into a file changes nothing. */
export class MessagesDigest {
  readonly #hash: Hash = createHash("sha256").update("[");
  #count = 0;

  add(message: unknown): void {
    this.#hash.update(this.#count++ === 0 ? canonicalJson(message) : `,${canonicalJson(message)}`);
  }

  get count(): number {
    return this.#count;
  }

  /** The hex digest; the object is spent. */
  finish(): string {
    return this.#hash.update("]").digest("hex");
  }
}

export const legacyLocaleDigest = (messages: unknown): string => sha256Hex(legacyJson(messages));

/** True when `recorded` (a digest from state) is a digest of `messages` in any form this package has written. */
export function digestMatches(recorded: string, messages: unknown): boolean {
  return recorded === messagesDigest(messages) || recorded === legacyLocaleDigest(messages);
}
