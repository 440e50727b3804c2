// With `acceptSecrets: true` a secret arrives wrapped and must leave wrapped: the engine no longer marks outputs by input name.
// The runtimes see plain values only.
import type { Props } from "../provider/protocol";

/** The signature key and value the Pulumi SDKs mark a secret with on the wire: `{ [key]: sig, value }` is a secret. */
export const SECRET_SIG = { key: "4dabf18193072939515e22adb298388d", value: "1b47061264138c4ac30d75fd1eb44270" } as const;

export function isSecret(value: unknown): value is { value: unknown } {
  return typeof value === "object" && value !== null && (value as Props)[SECRET_SIG.key] === SECRET_SIG.value;
}

export function secret(value: unknown): unknown {
  return isSecret(value) ? value : { [SECRET_SIG.key]: SECRET_SIG.value, value };
}

export function containsSecret(value: unknown): boolean {
  if (isSecret(value)) return true;
  if (Array.isArray(value)) return value.some(containsSecret);
  return typeof value === "object" && value !== null && Object.values(value).some(containsSecret);
}

// Values read from the wire with no secret's signature key in them (`./struct-decoder.ts`): revealed as they are, unwalked. Such a
// value is never changed in place (a secret put into it would go unrevealed): callers build new objects.
const secretFree = new WeakSet<object>();

export function knownSecretFree<T extends object>(value: T): T {
  secretFree.add(value);
  return value;
}

/** The value unwrapped; not copied when it holds no secret, since a batch's messages are read on every pass. */
export function reveal(value: unknown): unknown {
  if (typeof value === "object" && value !== null && secretFree.has(value)) return value;
  if (isSecret(value)) return reveal(value.value);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const inner = reveal(value[i]);
      if (inner !== value[i]) (copy ??= value.slice())[i] = inner;
    }
    return copy ?? value;
  }
  if (typeof value === "object" && value !== null) {
    let copy: Props | undefined;
    for (const [key, inner] of Object.entries(value)) {
      const revealed = reveal(inner);
      // Never an assignment to a copy made by spreading: a `__proto__` key must stay an own key.
      if (revealed !== inner) {
        copy ??= Object.fromEntries(Object.entries(value));
        Object.defineProperty(copy, key, { value: revealed, writable: true, enumerable: true, configurable: true });
      }
    }
    return copy ?? value;
  }
  return value;
}

export function revealProps(props: Props): Props {
  return reveal(props) as Props;
}

/** Marks `outs` secret for the schema's secret keys and, by the engine's own `annotateSecrets` rule, where `ins` held a secret. */
export function markSecrets(outs: Props, ins: Props, secretKeys: readonly string[]): Props {
  const marked: Props = { ...outs };
  for (const key of secretKeys) {
    if (key in marked && marked[key] !== null) marked[key] = secret(marked[key]);
  }
  annotate(marked, ins);
  return marked;
}

function annotate(outs: Props, ins: Props): void {
  for (const [key, inValue] of Object.entries(ins)) {
    if (!(key in outs)) continue;
    const outValue = outs[key];
    if (isPlainObject(outValue) && isPlainObject(inValue)) {
      const inner = { ...outValue };
      annotate(inner, inValue);
      outs[key] = inner;
    } else if (!isSecret(outValue) && containsSecret(inValue)) {
      outs[key] = secret(outValue);
    }
  }
}

const isPlainObject = (value: unknown): value is Props =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !isSecret(value);
