import type { MessagingClient } from "../client/messaging-client";
import { serviceLocation } from "../client/service-location";
import { clientFromSettings, namingTheSetting, readSetting, type ConfigSource, type SettingName } from "../client/settings";
import { processLog, type EngineLog } from "./engine-log";

/** What every provider method receives; the client is built on first use, so preview, refresh and destroy need no API key. */
export interface ProviderContext {
  client(): MessagingClient;
  /** A line the user reads, under the resource acted on (`warning:` prefixed lines are warnings). */
  warn(message: string): void;
  /** The resource's status while it works (progress); nothing when there is no engine to show it. */
  status(message: string): void;
  /** `error`, naming the setting to fix when a setting caused it. */
  explain(error: unknown): unknown;
  /** Where the settings point; needs no API key. */
  serviceUrl(): string | undefined;
  /** A setting other than the connection's (config first, then the environment). */
  setting(name: SettingName): string | undefined;
  /** The resource acted on, when known: its URN. */
  readonly urn?: string;
  /** What this provider has seen of the deployment so far (one provider process serves one deployment). */
  readonly deployment: Map<string, unknown>;
}

/** The plugin passes its engine `log`; the TypeScript route's host logs through the engine too (`processLog`). */
export interface ProviderConfig extends ConfigSource {
  log?: EngineLog;
}

// Pulumi CLIs before 3.139 never call `configure`: the error for a missing setting should still name it.
const NO_CONFIG: ConfigSource = { get: () => undefined };

interface Shared {
  client?: MessagingClient;
  readonly deployment: Map<string, unknown>;
}
const shared = new WeakMap<object, Shared>();

/** One client and one deployment record per provider configuration; the lines of each call go under its resource. */
export function contextFor(config: ProviderConfig | undefined, urn?: string): ProviderContext {
  const source = config ?? NO_CONFIG;
  let state = shared.get(source);
  if (!state) shared.set(source, (state = { deployment: new Map() }));
  const kept = state;
  const log = config?.log ?? processLog();
  return {
    urn,
    deployment: kept.deployment,
    client: () => (kept.client ??= clientFromSettings({ config: source })),
    explain: (error) => namingTheSetting(error, { config: source }),
    serviceUrl: () => {
      const baseUrl = readSetting("baseUrl", { config: source });
      return baseUrl === undefined ? undefined : serviceLocation(baseUrl);
    },
    setting: (name) => readSetting(name, { config: source }),
    warn: (message) => log.warn(message, urn),
    status: (message) => {
      if (urn !== undefined) log.status(message, urn);
    },
  };
}

/** Lines sent by every context of this configuration have reached the engine: it may stop the provider once a call is answered. */
export async function flushed(config: ProviderConfig | undefined): Promise<void> {
  await (config?.log ?? processLog()).flush();
}
