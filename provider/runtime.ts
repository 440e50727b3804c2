/**
 * The implementation that serialized providers call into, by package path:
 * `require("pulumi-messaging/dist/provider/runtime")`.
 *
 * This module path is part of the state format: every stack records a provider that
 * requires it, and `refresh`/`destroy` of old state run against the installed version.
 * Keep the path and the function signatures stable across releases.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ConfigSource, ProviderSettings, resolveSettings } from "./settings";
import * as webhookEndpoint from "./webhook-endpoint-runtime";
import * as messageBatch from "./message-batch-runtime";

type Props = Record<string, unknown>;

/** What each resource kind implements (`*-runtime.ts`), free of the provider protocol. */
export interface ResourceImplementation {
  check(news: Props): pulumi.dynamic.CheckResult;
  diff(id: string, olds: Props, news: Props): pulumi.dynamic.DiffResult;
  create(settings: ProviderSettings, inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props: Props | undefined): pulumi.dynamic.ReadResult;
  update(settings: () => ProviderSettings, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  remove(id: string, props: Props | undefined): void;
}

/** Methods of a serialized provider, each taking the provider's `configure` config first. */
export interface ResourceRuntime {
  check(config: ConfigSource | undefined, olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  diff(config: ConfigSource | undefined, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult>;
  create(config: ConfigSource | undefined, inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  read(config: ConfigSource | undefined, id: string, props?: Props): Promise<pulumi.dynamic.ReadResult>;
  update(config: ConfigSource | undefined, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  delete(config: ConfigSource | undefined, id: string, props: Props): Promise<void>;
}

/**
 * Settings are resolved only where the service is called, so preview, refresh and destroy
 * work without an API key.
 */
function adapt(implementation: ResourceImplementation): ResourceRuntime {
  return {
    check: async (_config, _olds, news) => implementation.check(news),
    diff: async (_config, id, olds, news) => implementation.diff(id, olds, news),
    create: async (config, inputs) => implementation.create(resolveSettings(config), inputs),
    read: async (_config, id, props) => implementation.read(id, props),
    update: async (config, id, olds, news) => implementation.update(() => resolveSettings(config), id, olds, news),
    delete: async (_config, id, props) => implementation.remove(id, props),
  };
}

/** Looked up by kind from the serialized provider. */
export const runtimes = {
  WebhookEndpoint: adapt(webhookEndpoint),
  MessageBatch: adapt(messageBatch),
} as const;
export type ResourceKind = keyof typeof runtimes;
