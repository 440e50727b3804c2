import { ConfigurationError, isAuthenticationError, isConfigurationError, isNotFoundError } from "../errors/messaging-error";
import { MessagingClient } from "./messaging-client";
import { DEFAULT_API_VERSION, type MessagingClientOptions } from "./options";

/**
 * Every setting the package reads from outside a call, named once: its stack config key
 * (read by the provider), its environment variable (read by the provider as a fallback and
 * by the CLI) and how to set it in config.
 */
export const SETTINGS = {
  apiKey: {
    what: "API key",
    /** Kept secret in the stack's state whether or not it was set with `--secret`, where the route allows (the plugin's). */
    secret: true,
    config: "messaging:apiKey",
    env: "MESSAGING_API_KEY",
    set: "pulumi config set --secret messaging:apiKey <key>",
  },
  baseUrl: {
    what: "base URL",
    secret: false,
    config: "messaging:baseUrl",
    env: "MESSAGING_BASE_URL",
    set: "pulumi config set messaging:baseUrl <url>",
  },
  apiVersion: {
    what: "API version",
    secret: false,
    config: "messaging:apiVersion",
    env: "MESSAGING_API_VERSION",
    set: "pulumi config set messaging:apiVersion <YYYY-MM-DD>",
  },
} as const;

export type SettingName = keyof typeof SETTINGS;

/** The part of the dynamic provider's `configure` request read here: stack config. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

/** Where settings come from: stack config first (when there is one), then the environment. */
export interface SettingSources {
  /** Stack config as the provider's `configure` delivers it; absent outside a Pulumi program (the CLI). */
  config?: ConfigSource;
  /** Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** How a {@link MessagingClient} reaches the service. */
export type ConnectionSettings = Required<Pick<MessagingClientOptions, "apiKey" | "baseUrl" | "apiVersion">>;

/** One setting, or `undefined` when no source has it; an empty value counts as unset. */
export function readSetting(name: SettingName, sources: SettingSources = {}): string | undefined {
  const fromConfig = sources.config?.get(SETTINGS[name].config);
  if (fromConfig) return fromConfig;
  return (sources.env ?? process.env)[SETTINGS[name].env] || undefined;
}

function whereToSet(name: SettingName, sources: SettingSources): string {
  const { set, env } = SETTINGS[name];
  return sources.config ? `stack config (\`${set}\`) or the environment variable ${env}` : `the environment variable ${env}`;
}

/**
 * The connection settings. A missing key or URL is a {@link ConfigurationError} naming where
 * to set it; the key itself is never echoed. The version defaults to the client's default.
 */
export function connectionSettings(sources: SettingSources = {}): ConnectionSettings {
  const required = (name: "apiKey" | "baseUrl"): string => {
    const value = readSetting(name, sources);
    if (value === undefined)
      throw new ConfigurationError(`No ${SETTINGS[name].what} for the messaging service: set ${whereToSet(name, sources)}.`);
    return value;
  };
  return {
    apiKey: required("apiKey"),
    baseUrl: required("baseUrl"),
    apiVersion: readSetting("apiVersion", sources) ?? DEFAULT_API_VERSION,
  };
}

/**
 * A client built from {@link connectionSettings}. The client checks the values and names the
 * option; its error is re-worded here to say where the settings were read from.
 */
export function clientFromSettings(sources: SettingSources = {}): MessagingClient {
  const settings = connectionSettings(sources);
  try {
    return new MessagingClient(settings);
  } catch (error) {
    if (!isConfigurationError(error)) throw error;
    // Name the one setting the client refused (its option name is in the message), and show a
    // refused base URL: it is not a secret, unless it holds credentials.
    const option = /option '(\w+)'/.exec(error.message)?.[1];
    const names = (Object.keys(SETTINGS) as SettingName[]).filter((name) => option === undefined || name === option);
    const where = (names.length > 0 ? names : (Object.keys(SETTINGS) as SettingName[]))
      .map((name) => (sources.config ? `${SETTINGS[name].config} or ${SETTINGS[name].env}` : SETTINGS[name].env))
      .join(", ");
    const value = option === "baseUrl" && !settings.baseUrl.includes("@") ? `, which is '${settings.baseUrl}'` : "";
    throw new ConfigurationError(`${error.message} (read from ${where}${value})`);
  }
}

/**
 * A service error that a setting causes, its message naming that setting where it was read
 * from: a 401 (the API key), a 404 (the base URL: every route called is the service's own, so
 * a 404 means the base URL is not the service's root). Any other error is returned as it is.
 */
export function namingTheSetting(error: unknown, sources: SettingSources = {}): unknown {
  const name: SettingName | undefined = isAuthenticationError(error) ? "apiKey" : isNotFoundError(error) ? "baseUrl" : undefined;
  if (name === undefined || !(error instanceof Error)) return error;
  const where = sources.config ? `${SETTINGS[name].config} (or ${SETTINGS[name].env})` : SETTINGS[name].env;
  error.message +=
    name === "apiKey"
      ? ` The service did not accept the API key: check ${where}.`
      : ` The service has no such route at this base URL: set ${where} to the service's root URL (without /v1).`;
  return error;
}
