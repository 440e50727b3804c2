import { ConfigurationError, isConfigurationError } from "../errors/messaging-error";
import type { MessagingClientOptions } from "../client/options";

/** The environment variables the CLI reads its client settings from. */
export const ENVIRONMENT_VARIABLES = {
  apiKey: "MESSAGING_API_KEY",
  baseUrl: "MESSAGING_BASE_URL",
  apiVersion: "MESSAGING_API_VERSION",
} as const;

/**
 * Client settings from the environment (`MESSAGING_API_KEY`, `MESSAGING_BASE_URL`, optional
 * `MESSAGING_API_VERSION`); a missing one is a {@link ConfigurationError} naming its variable.
 * The values are checked by the client itself, which names the option; `check` re-words its
 * error with the variables.
 */
export function clientSettingsFromEnvironment(
  env: NodeJS.ProcessEnv = process.env,
): Pick<MessagingClientOptions, "apiKey" | "baseUrl" | "apiVersion"> {
  const apiKey = env[ENVIRONMENT_VARIABLES.apiKey];
  const baseUrl = env[ENVIRONMENT_VARIABLES.baseUrl];
  if (!apiKey) throw new ConfigurationError(`No API key: set the environment variable ${ENVIRONMENT_VARIABLES.apiKey}.`);
  if (!baseUrl)
    throw new ConfigurationError(`No base URL: set the environment variable ${ENVIRONMENT_VARIABLES.baseUrl} (e.g. the emulator's URL).`);
  return { apiKey, baseUrl, apiVersion: env[ENVIRONMENT_VARIABLES.apiVersion] || undefined };
}

/** Runs `build` (which creates a client from these settings), naming the variables in a configuration error. */
export function withEnvironmentNames<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (!isConfigurationError(error)) throw error;
    const names = Object.values(ENVIRONMENT_VARIABLES).join(", ");
    throw new ConfigurationError(`${error.message} (set from ${names})`);
  }
}
