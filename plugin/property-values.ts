/**
 * Property values as they cross the provider protocol when the provider answers Configure
 * with `acceptSecrets: true`: a secret arrives as the SDK's wrapper object and must leave
 * wrapped, because the engine then no longer marks outputs by input name
 * (`provider_plugin.go` `Create`/`Update`/`Read`: `if !protocol.acceptSecrets { annotateSecrets(…) }`).
 * The runtimes see plain values only.
 */
import type { Props } from "../provider/protocol";

/** `sdk/nodejs/runtime/rpc.ts` `specialSigKey` / `specialSecretSig`: `{ [key]: sig, value }` is a secret. */
export const SECRET_SIG = { key: "4dabf18193072939515e22adb298388d", value: "1b47061264138c4ac30d75fd1eb44270" } as const;

/** True for the secret wrapper `{ <sig key>: <secret sig>, value }`. */
export function isSecret(value: unknown): value is { value: unknown } {
  return typeof value === "object" && value !== null && (value as Props)[SECRET_SIG.key] === SECRET_SIG.value;
}

/** `value` as a secret (not wrapped twice). */
export function secret(value: unknown): unknown {
  return isSecret(value) ? value : { [SECRET_SIG.key]: SECRET_SIG.value, value };
}

/** True when the value is, or holds, a secret. */
export function containsSecret(value: unknown): boolean {
  if (isSecret(value)) return true;
  if (Array.isArray(value)) return value.some(containsSecret);
  return typeof value === "object" && value !== null && Object.values(value).some(containsSecret);
}

/**
 * The value with every secret wrapper removed: what a runtime reads. A value holding no secret
 * is returned as it is (not copied): a batch's 30,000 messages are read on every pass.
 */
export function reveal(value: unknown): unknown {
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

/** {@link reveal} of a property map. */
export function revealProps(props: Props): Props {
  return reveal(props) as Props;
}

/**
 * Marks `outs` secret where the provider must: the keys the schema declares secret, and any
 * key whose value in `ins` held a secret. The second rule is the engine's own for providers
 * that accept no secrets (`provider_plugin.go` `annotateSecrets`: objects recurse, anything
 * else holding a secret is wrapped whole), so a value the user made secret stays secret here
 * too.
 */
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
