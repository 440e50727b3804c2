/**
 * The provider's configuration as the engine hands it over: checked (CheckConfig), compared
 * (DiffConfig) and read (Configure). The settings are the dynamic provider's
 * (`client/settings.ts`: stack config first, then the environment), so the same stack and
 * environment reach the same service by either route.
 */
import { resolveClientOptions } from "../client/options";
import type { ConfigSource } from "../client/settings";
import { SETTINGS, type SettingName } from "../client/settings";
import { IdentityKey } from "../client/identity-key";
import { isConfigurationError } from "../errors";
import { pinnedStackIdentity, STACK_IDENTITY_CONFIG, stackIdentityProblem } from "../provider/stack-identity-pin";
import { UNKNOWN } from "../provider/protocol";
import { PACKAGE_NAME } from "./kinds";
import { reveal, secret } from "./property-values";
import { configKey, STACK_IDENTITY_KEY } from "./schema";
import type { Props } from "../provider/protocol";

/** A check failure on one config key. */
export interface ConfigFailure {
  property: string;
  reason: string;
}

const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

/**
 * The settings Configure received. The engine sends them twice: as `args` (the provider's
 * inputs, keys unqualified, secrets wrapped when the plugin accepts them) and as `variables`
 * (`messaging:config:apiKey`, the older spelling: `provider_plugin.go` `Configure`). Either
 * is read; `args` first. Keys are asked for as the settings table names them (`messaging:apiKey`).
 */
export function configSource(args: Props, variables: ReadonlyMap<string, string>): ConfigSource {
  const values = new Map<string, string>();
  for (const name of SETTING_NAMES) {
    const key = configKey(name);
    const fromArgs = reveal(args[key]);
    const value =
      typeof fromArgs === "string" ? fromArgs : (variables.get(`${PACKAGE_NAME}:config:${key}`) ?? variables.get(SETTINGS[name].config));
    if (value !== undefined && value !== "") values.set(SETTINGS[name].config, value);
  }
  return { get: (key) => values.get(key) };
}

/**
 * What CheckConfig adds to the provider's inputs, so that DiffConfig, which sees only inputs,
 * can tell what changed: the fingerprint of the API key in use, from config or the environment
 * (`client/identity-key.ts`: it reveals nothing of the key), and the provider's own URN, which
 * tells a resource moved to another provider from a provider whose settings changed.
 */
export const RECORDED = { keyFingerprint: "keyFingerprint", providerUrn: "providerUrn" } as const;

/** The pinned stack identity among Configure's `args` or `variables`, or undefined. */
export function pinnedIdentityOf(args: Props, variables: ReadonlyMap<string, string>): string | undefined {
  const fromArgs = reveal(args[STACK_IDENTITY_KEY]);
  const value =
    typeof fromArgs === "string"
      ? fromArgs
      : (variables.get(`${PACKAGE_NAME}:config:${STACK_IDENTITY_KEY}`) ?? variables.get(STACK_IDENTITY_CONFIG));
  return pinnedStackIdentity(() => value);
}

/** The fingerprint of the API key this configuration uses: config first, then the environment, as Configure reads it. */
export function keyFingerprintOf(config: Props, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromConfig = reveal(config[configKey("apiKey")]);
  const apiKey = typeof fromConfig === "string" && fromConfig !== "" ? fromConfig : env[SETTINGS.apiKey.env] || undefined;
  return apiKey === undefined || apiKey === UNKNOWN ? undefined : IdentityKey.fromApiKey(apiKey).fingerprint;
}

/**
 * CheckConfig's failures, one per bad key, checked by the client's own option rules (the
 * values are never echoed). Missing settings are not failures: the environment may supply
 * them, and the first call that needs the service says where to set them.
 */
export function checkConfig(news: Props): ConfigFailure[] {
  const failures: ConfigFailure[] = [];
  const valid = { apiKey: "placeholder", baseUrl: "http://127.0.0.1" };
  for (const name of SETTING_NAMES) {
    const value = reveal(news[configKey(name)]);
    if (value === undefined || value === null || value === UNKNOWN) continue;
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
  const identity = reveal(news[STACK_IDENTITY_KEY]);
  if (identity !== undefined && identity !== null && identity !== UNKNOWN) {
    const problem = typeof identity === "string" ? stackIdentityProblem(identity) : "expected a string";
    if (problem) failures.push({ property: STACK_IDENTITY_KEY, reason: problem });
  }
  return failures;
}

/**
 * DiffConfig: which settings changed. A change never replaces the resources (the dynamic
 * provider's config changes update its provider in place too); a value not known yet counts
 * as changed.
 */
export function diffConfig(olds: Props, news: Props): string[] {
  return [...SETTING_NAMES.map(configKey), STACK_IDENTITY_KEY, ...Object.values(RECORDED)].filter((key) => {
    const next = reveal(news[key]);
    return next === UNKNOWN || (reveal(olds[key]) ?? null) !== (next ?? null);
  });
}

/**
 * CheckConfig's inputs: the news as given, with every secret setting (the API key) marked
 * secret, and what DiffConfig compares later ({@link RECORDED}). The engine records them as the provider's inputs and outputs, keeping the mark
 * (`provider_plugin.go` `CheckConfig` reads them with `KeepSecrets`), so the key is
 * encrypted in the state even when `pulumi config set` was run without `--secret`.
 */
export function checkedConfig(news: Props, urn: string, env: NodeJS.ProcessEnv = process.env): Props {
  const inputs: Props = { ...news, [RECORDED.providerUrn]: urn };
  const fingerprint = keyFingerprintOf(news, env);
  if (fingerprint !== undefined) inputs[RECORDED.keyFingerprint] = fingerprint;
  for (const name of SETTING_NAMES) {
    const key = configKey(name);
    if (SETTINGS[name].secret && typeof inputs[key] === "string" && inputs[key] !== UNKNOWN) inputs[key] = secret(inputs[key]);
  }
  return inputs;
}
