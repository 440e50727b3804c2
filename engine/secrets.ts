/**
 * Secrets as the engine handles them. In memory a secret is the SDK's wrapper
 * `{ <sig>: <secret sig>, value }`; in the state file its value is encrypted (AES-256-GCM
 * under a key kept beside the state file, as the passphrase secrets manager keeps a salt),
 * so a test can assert that a secret's plaintext is not in the state.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import * as fs from "node:fs";

type Props = Record<string, unknown>;

/** The marker the engine uses for a secret inside a struct: `{ [key]: value, value: <secret> }`. */
export const SECRET_SIG = { key: "4dabf18193072939515e22adb298388d", value: "1b47061264138c4ac30d75fd1eb44270" };

/** True for the engine's secret wrapper `{ <sig>: <secret sig>, value }`. */
export function isSecretWrapper(value: unknown): value is { value: unknown } {
  return typeof value === "object" && value !== null && (value as Props)[SECRET_SIG.key] === SECRET_SIG.value;
}

export function wrapSecret(value: unknown): Props {
  return { [SECRET_SIG.key]: SECRET_SIG.value, value };
}

/** Removes secret wrappers (the dynamic-provider host accepts no secrets: `acceptSecrets` false). */
export function unwrapSecrets(value: unknown): unknown {
  if (isSecretWrapper(value)) return unwrapSecrets(value.value);
  if (Array.isArray(value)) return value.map(unwrapSecrets);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, unwrapSecrets(inner)]));
  }
  return value;
}

/** Props as they cross to the dynamic-provider host, which accepts no secrets: every secret unwrapped. */
export function plainProps(props: Props): Props {
  return containsSecret(props) ? (unwrapSecrets(props) as Props) : props;
}

/** True when the value is, or holds, a secret. */
export function containsSecret(value: unknown): boolean {
  if (isSecretWrapper(value)) return true;
  if (Array.isArray(value)) return value.some(containsSecret);
  return typeof value === "object" && value !== null && Object.values(value).some(containsSecret);
}

/**
 * Marks outputs secret as the engine does for a provider that accepts no secrets: by input
 * name (provider_plugin.go `annotateSecrets`, which goes into an object output whose input of
 * the same name is an object too, and otherwise marks the whole output when its input holds a
 * secret anywhere), then the resource's `additionalSecretOutputs`, top-level names only
 * (step_executor.go `continueExecuteStep`).
 */
export function markSecretOutputs(outputs: Props, inputs: Props, additional: readonly string[]): Props {
  const annotated = annotateSecrets(outputs, inputs);
  return Object.fromEntries(
    Object.entries(annotated).map(([key, value]) => [key, additional.includes(key) && !isSecretWrapper(value) ? wrapSecret(value) : value]),
  );
}

function annotateSecrets(outputs: Props, inputs: Props): Props {
  return Object.fromEntries(
    Object.entries(outputs).map(([key, value]) => {
      if (!Object.hasOwn(inputs, key)) return [key, value];
      const input = inputs[key];
      if (isObjectValue(value) && isObjectValue(input)) return [key, annotateSecrets(value, input)];
      return [key, !isSecretWrapper(value) && containsSecret(input) ? wrapSecret(value) : value];
    }),
  );
}

// An object property value (`PropertyValue.IsObject`): not an array, not a secret.
function isObjectValue(value: unknown): value is Props {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !isSecretWrapper(value);
}

/** The state file's encryption key, made on first use and kept beside it (mode 0600). */
function stateKey(stateFile: string): Buffer {
  const keyFile = `${stateFile}.key`;
  if (!fs.existsSync(keyFile)) fs.writeFileSync(keyFile, randomBytes(32).toString("base64"), { mode: 0o600 });
  return Buffer.from(fs.readFileSync(keyFile, "utf8"), "base64");
}

/** Replaces each secret's value with `ciphertext`, as a checkpoint stores it. */
export function sealSecrets(value: unknown, stateFile: string): unknown {
  if (isSecretWrapper(value)) {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", stateKey(stateFile), iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(value.value), "utf8"), cipher.final()]);
    return { [SECRET_SIG.key]: SECRET_SIG.value, ciphertext: Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64") };
  }
  if (Array.isArray(value)) return value.map((inner) => sealSecrets(inner, stateFile));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, sealSecrets(inner, stateFile)]));
  }
  return value;
}

/** The inverse of {@link sealSecrets}. */
export function openSecrets(value: unknown, stateFile: string): unknown {
  if (typeof value === "object" && value !== null && (value as Props)[SECRET_SIG.key] === SECRET_SIG.value && "ciphertext" in value) {
    const raw = Buffer.from(String((value as Props).ciphertext), "base64");
    const decipher = createDecipheriv("aes-256-gcm", stateKey(stateFile), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return wrapSecret(JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8")));
  }
  if (Array.isArray(value)) return value.map((inner) => openSecrets(inner, stateFile));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, openSecrets(inner, stateFile)]));
  }
  return value;
}
