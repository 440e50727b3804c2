/**
 * The implementation that serialized providers call into, by package path:
 * `require("pulumi-messaging/dist/provider/runtime")`.
 *
 * This module path is part of the state format: every stack records a provider that
 * requires it, and `refresh`/`destroy` of old state run against the installed version.
 * Keep the path and the `runtimes` signatures stable across releases.
 */
import type * as pulumi from "@pulumi/pulumi";
import { contextFor, ProviderContext } from "./context";
import type { ConfigSource } from "../client/settings";
import * as webhookEndpoint from "./webhook-endpoint-runtime";
import * as messageBatch from "./message-batch-runtime";

type Props = Record<string, unknown>;

/** What each resource kind implements (`*-runtime.ts`): every method gets the same context first. */
export interface ResourceImplementation {
  check(context: ProviderContext, olds: Props, news: Props): pulumi.dynamic.CheckResult;
  diff(context: ProviderContext, id: string, olds: Props, news: Props): pulumi.dynamic.DiffResult;
  create(context: ProviderContext, inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  read(context: ProviderContext, id: string, props: Props): pulumi.dynamic.ReadResult;
  update(context: ProviderContext, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  remove(context: ProviderContext, id: string, props: Props): void;
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

function adapt(implementation: ResourceImplementation): ResourceRuntime {
  return {
    check: async (config, olds, news) => implementation.check(contextFor(config), olds ?? {}, news),
    diff: async (config, id, olds, news) => implementation.diff(contextFor(config), id, olds, news),
    create: async (config, inputs) => implementation.create(contextFor(config), inputs),
    read: async (config, id, props) => implementation.read(contextFor(config), id, props ?? {}),
    update: async (config, id, olds, news) => implementation.update(contextFor(config), id, olds, news),
    delete: async (config, id, props) => implementation.remove(contextFor(config), id, props ?? {}),
  };
}

/** Looked up by kind from the serialized provider. */
export const runtimes = {
  WebhookEndpoint: adapt(webhookEndpoint),
  MessageBatch: adapt(messageBatch),
} as const;
export type ResourceKind = keyof typeof runtimes;
