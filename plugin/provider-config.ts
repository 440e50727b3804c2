// The settings are the dynamic provider's, so the same stack and environment reach the same service by either route.
import { resolveClientOptions } from "../client/options";
import type { ConfigSource } from "../client/settings";
import { messageLimitProblem, SETTINGS, type SettingName } from "../client/settings";
import { IdentityKey } from "../client/identity-key";
import { isConfigurationError } from "../errors";
import { pinnedStackIdentity, STACK_IDENTITY_CONFIG, stackIdentityProblem } from "../provider/stack-identity-pin";
import { UNKNOWN } from "../provider/protocol";
import { PACKAGE_NAME } from "./kinds";
import { secret } from "./property-values";
import { configKey, STACK_IDENTITY_KEY } from "./schema";
import type { Props } from "../provider/protocol";

export interface ConfigFailure {
  property: string;
  reason: string;
}

const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

/** The engine sends the settings twice, as `args` and as `variables` (the older spelling); `args` are read first. */
export function configSource(args: Props, variables: ReadonlyMap<string, string>): ConfigSource {
  const values = new Map<string, string>();
  for (const name of SETTING_NAMES) {
    const key = configKey(name);
    const fromArgs = args[key];
    // A typed setting (a number) arrives as one from a program, as a string from stack config.
    const value =
      typeof fromArgs === "string" || typeof fromArgs === "number"
        ? String(fromArgs)
        : (variables.get(`${PACKAGE_NAME}:config:${key}`) ?? variables.get(SETTINGS[name].config));
    if (value !== undefined && value !== "") values.set(SETTINGS[name].config, value);
  }
  return { get: (key) => values.get(key) };
}

/**
 * Added to the provider's inputs for DiffConfig, which sees only inputs: the API key's fingerprint (which reveals nothing of the
 * key), and the provider's URN, which tells a resource moved to another provider from changed settings.
 */
export const RECORDED = { keyFingerprint: "keyFingerprint", providerUrn: "providerUrn" } as const;

export function pinnedIdentityOf(args: Props, variables: ReadonlyMap<string, string>): string | undefined {
  const fromArgs = args[STACK_IDENTITY_KEY];
  const value =
    typeof fromArgs === "string"
      ? fromArgs
      : (variables.get(`${PACKAGE_NAME}:config:${STACK_IDENTITY_KEY}`) ?? variables.get(STACK_IDENTITY_CONFIG));
  return pinnedStackIdentity(() => value);
}

export function keyFingerprintOf(config: Props, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromConfig = config[configKey("apiKey")];
  const apiKey = typeof fromConfig === "string" && fromConfig !== "" ? fromConfig : env[SETTINGS.apiKey.env] || undefined;
  return apiKey === undefined || apiKey === UNKNOWN ? undefined : IdentityKey.fromApiKey(apiKey).fingerprint;
}

/** By the client's own option rules; values are never echoed. Missing settings are not failures: the environment may supply them. */
export function checkConfig(news: Props): ConfigFailure[] {
  const failures: ConfigFailure[] = [];
  const valid = { apiKey: "placeholder", baseUrl: "http://127.0.0.1" };
  for (const name of SETTING_NAMES) {
    const value = news[configKey(name)];
    if (value === undefined || value === null || value === UNKNOWN) continue;
    if (name === "maxMessagesPerUpdate") {
      const problem = typeof value === "string" || typeof value === "number" ? messageLimitProblem(String(value)) : "expected a number";
      if (problem) failures.push({ property: configKey(name), reason: `${problem} (${SETTINGS[name].set})` });
      continue;
    }
    if (typeof value !== "string") {
      failures.push({ property: configKey(name), reason: `expected a string (${SETTINGS[name].set})` });
      continue;
    }
    try {
      resolveClientOptions({ ...valid, [name]: value });
    } catch (error) {
      if (!isConfigurationError(error)) throw error;
      failures.push({ property: configKey(name), reason: error.message });
    }
  }
  const identity = news[STACK_IDENTITY_KEY];
  if (identity !== undefined && identity !== null && identity !== UNKNOWN) {
    const problem = typeof identity === "string" ? stackIdentityProblem(identity) : "expected a string";
    if (problem) failures.push({ property: STACK_IDENTITY_KEY, reason: problem });
  }
  return failures;
}

/** A change never replaces the resources, as with the dynamic provider. */
export function diffConfig(olds: Props, news: Props): string[] {
  return [...SETTING_NAMES.map(configKey), STACK_IDENTITY_KEY, ...Object.values(RECORDED)].filter((key) => {
    const next = news[key];
    return next === UNKNOWN || (olds[key] ?? null) !== (next ?? null);
  });
}

/**
 * The stack's pinned identity as the engine gives it to every provider process: `PULUMI_CONFIG`, the stack config of this
 * package's namespace, keys without `messaging:`. An explicit provider's inputs are its own, but the identity is the stack's.
 */
export function stackPinOf(env: NodeJS.ProcessEnv = process.env): string | undefined {
  let config: unknown;
  try {
    config = JSON.parse(env.PULUMI_CONFIG ?? "{}");
  } catch {
    return undefined;
  }
  const value = (config as Record<string, unknown> | null)?.[STACK_IDENTITY_KEY];
  // An invalid one is the default provider's to refuse, naming the config key.
  return typeof value === "string" && value !== "" && stackIdentityProblem(value) === undefined ? value : undefined;
}

/**
 * The API key marked secret: the engine keeps the mark (`KeepSecrets`), so it is encrypted in state even if set without `--secret`.
 * A provider not given an identity of its own takes the stack's pin, which Configure then reads as if it had been given it.
 */
export function checkedConfig(news: Props, urn: string, env: NodeJS.ProcessEnv = process.env): Props {
  const inputs: Props = { ...news, [RECORDED.providerUrn]: urn };
  const pin = stackPinOf(env);
  if (news[STACK_IDENTITY_KEY] == null && pin !== undefined) inputs[STACK_IDENTITY_KEY] = pin;
  const fingerprint = keyFingerprintOf(news, env);
  if (fingerprint !== undefined) inputs[RECORDED.keyFingerprint] = fingerprint;
  for (const name of SETTING_NAMES) {
    const key = configKey(name);
    if (SETTINGS[name].secret && typeof inputs[key] === "string" && inputs[key] !== UNKNOWN) inputs[key] = secret(inputs[key]);
  }
  return inputs;
}
