import { DEFAULT_API_VERSION } from "../client";
import { ConfigurationError } from "../errors";

/** How the provider reaches the service. Lives only in memory of the provider process. */
export interface ProviderSettings {
  apiKey: string;
  baseUrl: string;
  apiVersion: string;
}

/** The part of the dynamic provider's `configure` request we read. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

const KEYS = {
  apiKey: { config: "messaging:apiKey", env: "MESSAGING_API_KEY", set: "pulumi config set --secret messaging:apiKey <key>" },
  baseUrl: { config: "messaging:baseUrl", env: "MESSAGING_BASE_URL", set: "pulumi config set messaging:baseUrl <url>" },
  apiVersion: { config: "messaging:apiVersion", env: "MESSAGING_API_VERSION", set: "pulumi config set messaging:apiVersion <YYYY-MM-DD>" },
} as const;

/**
 * Stack config first (`messaging:*`, delivered to the provider by `configure`), then the
 * environment. A missing value fails with both ways to set it; the key itself is never echoed.
 */
export function resolveSettings(config: ConfigSource | undefined, env: NodeJS.ProcessEnv = process.env): ProviderSettings {
  const lookup = (name: keyof typeof KEYS): string | undefined => {
    const fromConfig = config?.get(KEYS[name].config);
    const value = fromConfig !== undefined && fromConfig !== "" ? fromConfig : env[KEYS[name].env];
    return value === undefined || value === "" ? undefined : value;
  };
  const require = (name: "apiKey" | "baseUrl", what: string): string => {
    const value = lookup(name);
    if (value === undefined) {
      const key = KEYS[name];
      throw new ConfigurationError(
        `No ${what} for the messaging service. Set it in stack config (\`${key.set}\`) or in the environment variable ${key.env}.`,
      );
    }
    return value;
  };
  return {
    apiKey: require("apiKey", "API key"),
    baseUrl: require("baseUrl", "base URL"),
    apiVersion: lookup("apiVersion") ?? DEFAULT_API_VERSION,
  };
}
