import type { MessagingClient } from "../client/messaging-client";
import { serviceLocation } from "../client/service-location";
import { clientFromSettings, namingTheSetting, readSetting, type ConfigSource } from "../client/settings";

/** What every provider method receives; the client is built on first use, so preview, refresh and destroy need no API key. */
export interface ProviderContext {
  client(): MessagingClient;
  /** A line the user reads: stderr by default, as stdout is reserved for the host's port. */
  warn(message: string): void;
  /** `error`, naming the setting to fix when a setting caused it. */
  explain(error: unknown): unknown;
  /** Where the settings point; needs no API key. */
  serviceUrl(): string | undefined;
}

/** `warn` is set by the plugin, whose stderr the engine hides: its lines go through the engine's `Log`. */
export interface ProviderConfig extends ConfigSource {
  warn?(message: string): void;
}

const contexts = new WeakMap<object, ProviderContext>();
// Pulumi CLIs before 3.139 never call `configure`: the error for a missing setting should still name it.
const NO_CONFIG: ConfigSource = { get: () => undefined };

export function contextFor(config: ProviderConfig | undefined): ProviderContext {
  const key = config ?? NO_CONFIG;
  let context = contexts.get(key);
  if (!context) {
    let client: MessagingClient | undefined;
    context = {
      client: () => (client ??= clientFromSettings({ config: key })),
      explain: (error) => namingTheSetting(error, { config: key }),
      serviceUrl: () => {
        const baseUrl = readSetting("baseUrl", { config: key });
        return baseUrl === undefined ? undefined : serviceLocation(baseUrl);
      },
      warn: config?.warn ? (message) => config.warn!(message) : (message) => process.stderr.write(`${message}\n`),
    };
    contexts.set(key, context);
  }
  return context;
}
