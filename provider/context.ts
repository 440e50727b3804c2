import type { MessagingClient } from "../client/messaging-client";
import { serviceLocation } from "../client/service-location";
import { clientFromSettings, namingTheSetting, readSetting, type ConfigSource } from "../client/settings";

/**
 * What every provider method receives: a client built on first use (so preview, refresh and
 * destroy work without an API key), and a way to tell the user something. One context per
 * configured provider, reused across its calls.
 */
export interface ProviderContext {
  /**
   * One client for the life of the provider process, from stack config, then the environment
   * (client/settings.ts); a missing or invalid setting is a `ConfigurationError` naming both.
   */
  client(): MessagingClient;
  /**
   * A line the user reads. The engine shows a provider's stderr as info diagnostics
   * (docs/real-engine.md); stdout is reserved for the host's port.
   */
  warn(message: string): void;
  /**
   * `error` from a service call, its message naming the setting to fix when a setting caused
   * it (a refused API key, a base URL that is not the service's root); otherwise as it is.
   */
  explain(error: unknown): unknown;
  /** Where the settings point (`client/service-location.ts`), or undefined when no base URL is set: needs no API key. */
  serviceUrl(): string | undefined;
}

/**
 * What the host hands a provider: its settings and, where the user would not see the
 * provider's stderr, where a line for the user goes instead. The engine shows the dynamic
 * provider's stderr, but hides a resource plugin's (`plugin.go` `newPlugin`, "Hiding logs"),
 * so the plugin sends its lines through the engine's `Log` (`plugin/engine-log.ts`).
 */
export interface ProviderConfig extends ConfigSource {
  warn?(message: string): void;
}

const contexts = new WeakMap<object, ProviderContext>();
// Before Pulumi CLI 3.139 the host never calls `configure`: there is no stack config to read,
// but the error for a missing setting should still name it.
const NO_CONFIG: ConfigSource = { get: () => undefined };

/** The context of the provider configured with `config` (one per `configure`). */
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
