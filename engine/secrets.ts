type Props = Record<string, unknown>;

/** The marker the engine uses for a secret inside a struct: `{ [key]: value, value: <secret> }`. */
export const SECRET_SIG = { key: "4dabf18193072939515e22adb298388d", value: "1b47061264138c4ac30d75fd1eb44270" };

/** True for the engine's secret wrapper `{ <sig>: <secret sig>, value }`. */
export function isSecretWrapper(value: unknown): value is { value: unknown } {
  return typeof value === "object" && value !== null && (value as Props)[SECRET_SIG.key] === SECRET_SIG.value;
}

/** Removes secret wrappers (as the engine does for providers that do not accept secrets). */
export function unwrapSecrets(value: unknown): unknown {
  if (isSecretWrapper(value)) return unwrapSecrets(value.value);
  if (Array.isArray(value)) return value.map(unwrapSecrets);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, unwrapSecrets(inner)]));
  }
  return value;
}

export function wrapSecret(value: unknown): Props {
  return { [SECRET_SIG.key]: SECRET_SIG.value, value };
}

/** Top-level keys whose value is (or holds) a secret. */
export function secretKeys(props: Props): string[] {
  const holds = (value: unknown): boolean =>
    isSecretWrapper(value) ||
    (Array.isArray(value) ? value.some(holds) : typeof value === "object" && value !== null && Object.values(value).some(holds));
  return Object.keys(props).filter((key) => holds(props[key]));
}

/** Wraps the named top-level outputs as secrets. */
export function markSecrets(props: Props, keys: readonly string[]): Props {
  return Object.fromEntries(Object.entries(props).map(([key, value]) => [key, keys.includes(key) && !isSecretWrapper(value) ? wrapSecret(value) : value]));
}
