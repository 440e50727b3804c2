/**
 * The digest a `MessageBatch` records of its messages, by which `diff` tells whether they changed. Part of the state format: a
 * digest that changed for the same messages would send every recorded batch again, so each form is frozen (golden tests pin them).
 * v1 is written (bare SHA-256 hex of the canonical JSON); legacy (keys by `localeCompare`) is only read, as old state holds it,
 * under every locale's order, since the locale it was written under is not recorded.
 * A new form must not be confusable with v1 (e.g. `v2:<hex>`), and every form above stays readable.
 */
import { createHash, type Hash } from "node:crypto";
import { canonicalJson } from "../schemas/canonical-json";

// The legacy form sorted keys with `localeCompare`, so the process's locale (LC_ALL, LANG) decided the order: state written under
// cs_CZ orders "channel" after "hotel", under en_US before it. It is read under every collation that orders its keys differently.
const legacyJson = (value: unknown, compare: (a: string, b: string) => number): string =>
  JSON.stringify(value ?? null, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => compare(a, b))) : v,
  );

/** The languages ICU tailors collation for (any other locale collates as the root does); the process's own locale comes first. */
const COLLATING_LANGUAGES = (
  "af am ar as az be bg bn bo br bs ca ceb chr cs cy da de dsb dz ee el en eo es et fa ff fi fil fo fr fy ga gl gu ha haw he " +
  "hi hr hsb hu hy id ig is it ja ka kk kl km kn ko kok ku ky lb lkt ln lo lt lv mk ml mn mr ms mt my nb ne nl nn no om or pa " +
  "pl ps pt ro ru sa se si sk sl smn sq sr sv sw ta te th tk to tr ug uk ur uz vi wae wo xh yi yo yue zh zu"
).split(" ");

function objectKeys(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) objectKeys(item, into);
  else if (value && typeof value === "object") {
    into.add(Object.keys(value).sort().join("\u0000"));
    for (const item of Object.values(value)) objectKeys(item, into);
  }
}

/** Every legacy digest `messages` could have been recorded with: one for each way a locale orders the keys they hold. */
export function legacyLocaleDigests(messages: unknown): string[] {
  const keySets = new Set<string>();
  objectKeys(messages, keySets);
  const lists = [...keySets].map((set) => set.split("\u0000"));
  const orders = new Map<string, Intl.Collator>();
  for (const locale of [undefined, ...Intl.Collator.supportedLocalesOf(COLLATING_LANGUAGES)]) {
    const collator = new Intl.Collator(locale);
    const order = lists.map((keys) => [...keys].sort(collator.compare).join("\u0000")).join("\u0001");
    if (!orders.has(order)) orders.set(order, collator);
  }
  return [...orders.values()].map((collator) => legacyLocaleDigest(messages, collator.compare));
}

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
    this.addCanonical(canonicalJson(message));
  }

  /** A message given as its canonical JSON, when the caller has it already. */
  addCanonical(text: string): void {
    this.#hash.update(this.#count++ === 0 ? text : `,${text}`);
  }

  get count(): number {
    return this.#count;
  }

  /** The hex digest; the object is spent. */
  finish(): string {
    return this.#hash.update("]").digest("hex");
  }
}

/** The legacy digest with keys in `compare`'s order: by default this process's locale's, as an earlier release running here wrote it. */
export const legacyLocaleDigest = (messages: unknown, compare = (a: string, b: string): number => a.localeCompare(b)): string =>
  sha256Hex(legacyJson(messages, compare));

/** True when `recorded` (a digest from state) is a digest of `messages` in any form this package has written, under any locale. */
export function digestMatches(recorded: string, messages: unknown): boolean {
  return recorded === messagesDigest(messages) || legacyLocaleDigests(messages).includes(recorded);
}
