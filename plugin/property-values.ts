// With `acceptSecrets: true` a secret arrives wrapped and must leave wrapped: the engine no longer marks outputs by input name.
// The runtimes see plain values only: the request reader (`./struct-decoder.ts`) unwraps each secret as it reads it, the one
// place that does, and records where it was; the answer is marked again from that record.
import type { Props } from "../provider/protocol";

/** The signature key and value the Pulumi SDKs mark a secret with on the wire: `{ [key]: sig, value }` is a secret. */
export const SECRET_SIG = { key: "4dabf18193072939515e22adb298388d", value: "1b47061264138c4ac30d75fd1eb44270" } as const;

/** Where a value held secrets: `true`, the value itself (or a list holding one); else, by key, the members that did. */
export type SecretMarks = true | { readonly [key: string]: SecretMarks };

export function isSecret(value: unknown): value is { value: unknown } {
  return typeof value === "object" && value !== null && (value as Props)[SECRET_SIG.key] === SECRET_SIG.value;
}

export function secret(value: unknown): unknown {
  return isSecret(value) ? value : { [SECRET_SIG.key]: SECRET_SIG.value, value };
}

// Property values read from a request, by where their secrets were. Such a value is never changed in place: callers build new
// objects (a copy carries no record, and marks nothing).
const secretsOf = new WeakMap<Props, { readonly [key: string]: SecretMarks }>();

/** Notes, for the request reader, where the secrets of `props` (unwrapped) were. */
export function recordSecrets(props: Props, marks: { readonly [key: string]: SecretMarks }): Props {
  secretsOf.set(props, marks);
  return props;
}

/** Whether `props`, as read from a request, held a secret. */
export const heldSecrets = (props: Props): boolean => secretsOf.has(props);

/**
 * Marks `outs` secret for the schema's secret keys and, by the engine's own `annotateSecrets` rule, where `ins` (as read from a
 * request) held a secret.
 */
export function markSecrets(outs: Props, ins: Props, secretKeys: readonly string[]): Props {
  const marked: Props = { ...outs };
  for (const key of secretKeys) {
    if (key in marked && marked[key] !== null) marked[key] = secret(marked[key]);
  }
  const marks = secretsOf.get(ins);
  if (marks !== undefined) annotate(marked, marks);
  return marked;
}

// An output whose input was a plain object is marked member by member; any other is marked whole.
function annotate(outs: Props, marks: { readonly [key: string]: SecretMarks }): void {
  for (const [key, mark] of Object.entries(marks)) {
    if (!(key in outs)) continue;
    const outValue = outs[key];
    if (mark !== true && isPlainObject(outValue)) {
      const inner = { ...outValue };
      annotate(inner, mark);
      outs[key] = inner;
    } else if (!isSecret(outValue)) {
      outs[key] = secret(outValue);
    }
  }
}

const isPlainObject = (value: unknown): value is Props =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !isSecret(value);
