import { ConfigurationError, isAuthenticationError, isConfigurationError, isNotFoundError } from "../errors/messaging-error";
import { MessagingClient } from "./messaging-client";
import { DEFAULT_API_VERSION, type MessagingClientOptions } from "./options";

/** Every setting read from outside a call: its stack config key (provider) and environment variable (provider fallback, CLI). */
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
  /** Not the client's: the most messages one update may send (`MessageBatch`), checked at preview and before any call. */
  maxMessagesPerUpdate: {
    what: "most messages an update may send",
    secret: false,
    config: "messaging:maxMessagesPerUpdate",
    env: "MESSAGING_MAX_MESSAGES_PER_UPDATE",
    set: "pulumi config set messaging:maxMessagesPerUpdate <count>",
  },
} as const;

/** The settings the client itself takes (the others are the provider's). */
export const CLIENT_SETTINGS = ["apiKey", "baseUrl", "apiVersion"] as const;

/** A whole number of messages, 1 or more; undefined when `value` is one. */
export function messageLimitProblem(value: string): string | undefined {
  return /^[1-9][0-9]{0,14}$/.test(value.trim()) ? undefined : `expected a whole number of messages, 1 or more, not '${value}'`;
}

export type SettingName = keyof typeof SETTINGS;

export interface ConfigSource {
  get(key: string): string | undefined;
}

/** Stack config first (absent outside a Pulumi program), then the environment (default `process.env`). */
export interface SettingSources {
  config?: ConfigSource;
  env?: NodeJS.ProcessEnv;
}

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

/** A missing key or URL is a {@link ConfigurationError} naming where to set it; the key is never echoed. */
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

/** The client's `ConfigurationError` names the option; it is re-worded to say where the setting was read from. */
export function clientFromSettings(sources: SettingSources = {}): MessagingClient {
  const settings = connectionSettings(sources);
  try {
    return new MessagingClient(settings);
  } catch (error) {
    if (!isConfigurationError(error)) throw error;
    // A refused base URL is shown: it is not a secret, unless it holds credentials.
    const option = /option '(\w+)'/.exec(error.message)?.[1];
    const names = CLIENT_SETTINGS.filter((name) => option === undefined || name === option);
    const where = (names.length > 0 ? names : CLIENT_SETTINGS)
      .map((name) => (sources.config ? `${SETTINGS[name].config} or ${SETTINGS[name].env}` : SETTINGS[name].env))
      .join(", ");
    const value = option === "baseUrl" && !settings.baseUrl.includes("@") ? `, which is '${settings.baseUrl}'` : "";
    throw new ConfigurationError(`${error.message} (read from ${where}${value})`);
  }
}

/**
 * Names the setting behind a 401 (the API key) or a 404 (the base URL: every route called
 * exists on the service, so a 404 means the base URL is not its root).
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
