/**
 * How a batch's messages become calls, and the key each call goes under. The calls are planned once, from the messages `check`
 * judged, and each is checked against the plan as it goes out (`checkedCalls`): what is sent is what was planned. Each scheme
 * is frozen, since the service remembers keys and part-sent state was made with it (golden tests pin them); a batch's id
 * tells its scheme.
 *
 * - mb3, every batch this release creates: calls are cut where the messages say (after a message whose hash ends a call), so
 *   an edit moves at most the boundaries next to it; each call is keyed by its own messages, so the calls an edit did not touch
 *   keep their keys and a create redone after a kill is answered from the service's record for them; each message goes on the
 *   wire as its canonical JSON, so a key always carries the same bytes whatever the key order in a file, its format or the route.
 * - by position, batches part-sent by earlier releases (ids `mb1-…`, `mb2-…` or a UUID): in order, at most 1,000 messages and
 *   10 MiB a call (`calls.ts`); call `i` is keyed `<id>-<i>`, and messages go out as given, as those releases sent them.
 */
import { createHash, hash, type Hash } from "node:crypto";
import type { Chunk } from "../../../client/chunks";
import type { IdentityKey } from "../../../client/identity-key";
import { canonicalJson } from "../../../schemas/canonical-json";
import { envelopeBytes } from "../../../schemas/one-call";
import { MAX_MESSAGES_PER_BATCH } from "../../../schemas";
import { CALL_MAX_BYTES, CallCut } from "./calls";

/** Past {@link MIN_CALL} messages, a call closes after a message whose hash is 0 modulo this: about 720 messages a call. */
const BOUNDARY_MODULUS = 256;
const MIN_CALL = 500;

export const MB3 = "mb3-";

/** One call of a plan: how many messages it carries, and the SHA-256 of their canonical JSON as an array. */
export interface PlannedCall {
  readonly count: number;
  readonly digest: string;
}

export interface CallPlan {
  readonly calls: readonly PlannedCall[];
  readonly count: number;
  /** The v1 digest of all the messages (`provider/messages-digest.ts`): what `check` recorded. */
  readonly digest: string;
}

interface Cut {
  /** True when `message` (whose canonical JSON is `text`) opens a call. */
  startsCall(message: unknown, text: string): boolean;
}

export interface CallScheme {
  newCut(): Cut;
  /** The key of each call of `plan`, in order. */
  keys(plan: CallPlan): string[];
  /** Messages go on the wire as their canonical JSON (mb3), or as given (earlier releases). */
  readonly canonicalWire: boolean;
}

// A call's boundaries depend only on its own messages since the last one: an edit re-synchronizes at the next boundary.
export class ContentCut implements Cut {
  readonly #envelope: number;
  #count = 0;
  #bytes = 0;
  #closed = true;

  constructor(stream: string) {
    this.#envelope = envelopeBytes(stream);
  }

  startsCall(_message: unknown, text: string): boolean {
    const size = Buffer.byteLength(text);
    // A comma before every message but a call's first.
    const starts = this.#closed || this.#count === MAX_MESSAGES_PER_BATCH || this.#bytes + 1 + size > CALL_MAX_BYTES;
    if (starts) {
      this.#count = 0;
      this.#bytes = this.#envelope;
    }
    this.#bytes += (this.#count > 0 ? 1 : 0) + size;
    this.#count++;
    this.#closed = this.#count >= MIN_CALL && hash("sha256", text, "buffer").readUInt32BE(0) % BOUNDARY_MODULUS === 0;
    return starts;
  }
}

/** The SHA-256 of canonical texts as one JSON array: `[t1,t2,…]`. */
export class ArrayDigest {
  readonly #hash: Hash = createHash("sha256").update("[");
  #count = 0;

  add(text: string): void {
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

/**
 * The mb3 scheme of a batch at `scope` (its stack's identity and place). Call keys are HMACs under the identity key of the scope,
 * stream, triggers, the call's own digest and how many calls before it had the same digest: two calls of the same messages are
 * two calls. The messages' digest as a whole is not in them, so an edit elsewhere changes no call's key.
 */
export function mb3Scheme(key: IdentityKey, scope: string, stream: string, triggers: unknown): CallScheme {
  return {
    canonicalWire: true,
    newCut: () => new ContentCut(stream),
    keys: (plan) => {
      const seen = new Map<string, number>();
      return plan.calls.map((call) => {
        const occurrence = seen.get(call.digest) ?? 0;
        seen.set(call.digest, occurrence + 1);
        return mb3CallKey(key, scope, stream, triggers, call.digest, occurrence);
      });
    },
  };
}

/** The key of the `occurrence`-th call (from 0) of a batch whose messages have the digest `callDigest`. */
export function mb3CallKey(
  key: IdentityKey,
  scope: string,
  stream: string,
  triggers: unknown,
  callDigest: string,
  occurrence: number,
): string {
  return `mc3-${key.digest("pulumi-messaging batch call mb3", canonicalJson([scope, stream, triggers ?? null, callDigest, occurrence]))}`;
}

/** The id of a new batch: the same for a create redone with the same place, stream, messages and triggers under the same key. */
export function mb3BatchId(key: IdentityKey, scope: string, stream: string, digest: string, triggers: unknown): string {
  return `${MB3}${key.digest("pulumi-messaging batch mb3", canonicalJson([scope, stream, digest, triggers ?? null]))}`;
}

/** The scheme of batches part-sent by earlier releases: call `i` under `<prefix>-<i>`, messages as given. */
export function positionScheme(prefix: string, stream: string): CallScheme {
  return {
    canonicalWire: false,
    newCut: () => {
      const cut = new CallCut(stream);
      return { startsCall: (message) => cut.startsCall(message) };
    },
    keys: (plan) => plan.calls.map((_call, index) => `${prefix}-${index}`),
  };
}

/** Pass one: reads every message once and plans the calls. Nothing is kept but each call's count and digest. */
export async function planCalls(scheme: CallScheme, messages: Iterable<unknown> | AsyncIterable<unknown>): Promise<CallPlan> {
  const cut = scheme.newCut();
  const calls: PlannedCall[] = [];
  const all = new ArrayDigest();
  let call = new ArrayDigest();
  for await (const message of messages) {
    const text = canonicalJson(message);
    if (cut.startsCall(message, text) && call.count > 0) {
      calls.push({ count: call.count, digest: call.finish() });
      call = new ArrayDigest();
    }
    call.add(text);
    all.add(text);
  }
  if (call.count > 0) calls.push({ count: call.count, digest: call.finish() });
  return { calls, count: all.count, digest: all.finish() };
}

/**
 * Pass two: the messages again, cut as planned, each call checked against the plan before it is handed on, and the source left
 * once the last planned call is out. A call whose messages are not the planned ones (a file rewritten during the send) stops the
 * send there with `changed(index)`: nothing unplanned goes out. `wire` gives what the client sends of each message.
 */
export async function* checkedCalls<T>(
  plan: CallPlan,
  messages: Iterable<unknown> | AsyncIterable<unknown>,
  wire: (message: unknown, text: string) => T,
  changed: (index: number) => Error,
): AsyncGenerator<Chunk<T>, void, undefined> {
  if (plan.calls.length === 0) return;
  let index = 0;
  let offset = 0;
  let items: T[] = [];
  let digest = new ArrayDigest();
  for await (const message of messages) {
    const text = canonicalJson(message);
    items.push(wire(message, text));
    digest.add(text);
    if (items.length < plan.calls[index].count) continue;
    if (digest.finish() !== plan.calls[index].digest) throw changed(index);
    yield { index, offset, items };
    offset += items.length;
    items = [];
    digest = new ArrayDigest();
    if (++index === plan.calls.length) return;
  }
  // Fewer messages than planned.
  throw changed(index);
}
