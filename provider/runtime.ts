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

/** Methods of a serialized provider, each taking the provider's `configure` config first. */
export interface ResourceRuntime {
  check(config: ConfigSource | undefined, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult>;
  diff(config: ConfigSource | undefined, id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.DiffResult>;
  create(config: ConfigSource | undefined, inputs: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult>;
  read(config: ConfigSource | undefined, id: string, props?: Record<string, unknown>): Promise<pulumi.dynamic.ReadResult>;
  update(config: ConfigSource | undefined, id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.UpdateResult>;
  delete(config: ConfigSource | undefined, id: string, props: Record<string, unknown>): Promise<void>;
}

// Settings are resolved only where the service is called, so preview, refresh and
// destroy work without an API key.
const settings = (config: ConfigSource | undefined): ProviderSettings => resolveSettings(config);

/** `messaging:WebhookEndpoint`. */
export const webhookEndpointRuntime: ResourceRuntime = {
  async check(_config, _olds, news) {
    return webhookEndpoint.check(news);
  },
  async diff(_config, _id, olds, news) {
    return webhookEndpoint.diff(olds, news);
  },
  async create(config, inputs) {
    return webhookEndpoint.create(settings(config), inputs);
  },
  async read(_config, id, props) {
    return webhookEndpoint.read(id, props);
  },
  async update(_config, id, olds) {
    return webhookEndpoint.update(id, olds);
  },
  async delete(_config, id, props) {
    webhookEndpoint.remove(id, props);
  },
};

/** `messaging:MessageBatch`. */
export const messageBatchRuntime: ResourceRuntime = {
  async check(_config, _olds, news) {
    return messageBatch.check(news);
  },
  async diff(_config, _id, olds, news) {
    return messageBatch.diff(olds, news);
  },
  async create(config, inputs) {
    return messageBatch.create(settings(config), inputs);
  },
  async read(_config, id, props) {
    return messageBatch.read(id, props);
  },
  async update(config, id, olds, news) {
    return messageBatch.update(() => settings(config), id, olds, news);
  },
  async delete(_config, id) {
    messageBatch.remove(id);
  },
};

/** Looked up by name from the serialized provider. */
export const runtimes = {
  WebhookEndpoint: webhookEndpointRuntime,
  MessageBatch: messageBatchRuntime,
} as const;
export type ResourceKind = keyof typeof runtimes;
