import { MessagingClient } from "../client";
import { ConfigSource, ProviderSettings, resolveSettings } from "./settings";

/**
 * What every provider method receives: settings and a client built on first use (so
 * preview, refresh and destroy work without an API key), and a way to tell the user
 * something. One context per configured provider, reused across its calls.
 */
export interface ProviderContext {
  /** Stack config, then the environment; throws a `ConfigurationError` naming both ways to set a missing value. */
  settings(): ProviderSettings;
  /** One client for the life of the provider process. */
  client(): MessagingClient;
  /**
   * A line the user reads. The engine shows a provider's stderr as info diagnostics
   * (engine/README.md, "provider output"); stdout is reserved for the host's port.
   */
  warn(message: string): void;
}

const contexts = new WeakMap<object, ProviderContext>();
const NO_CONFIG = {};

/** The context of the provider configured with `config` (one per `configure`). */
export function contextFor(config: ConfigSource | undefined): ProviderContext {
  const key = config ?? NO_CONFIG;
  let context = contexts.get(key);
  if (!context) {
    let settings: ProviderSettings | undefined;
    let client: MessagingClient | undefined;
    context = {
      settings: () => (settings ??= resolveSettings(config)),
      client: () => (client ??= new MessagingClient(context!.settings())),
      warn: (message) => process.stderr.write(`${message}\n`),
    };
    contexts.set(key, context);
  }
  return context;
}
