import type * as pulumi from "@pulumi/pulumi";
import type { ConfigSource } from "../client/settings";
import type { ResourceRuntime } from "./kinds/define-kind";
import type { Props } from "./protocol";

/**
 * The provider Pulumi serializes into state as `__provider`: a stateless shell, since closure serialization captures local modules
 * by value and cannot capture a zod schema or an undici pool, so each method `require`s the implementation by package path.
 * Config is kept on `this`: a module-level variable would be serialized separately into each method.
 */
export function createProviderShell(kind: string): pulumi.dynamic.ResourceProvider {
  const runtime = (): ResourceRuntime => require("pulumi-messaging/dist/provider/runtime").runtimes[kind];
  return {
    async configure(this: { config?: ConfigSource }, req: pulumi.dynamic.ConfigureRequest) {
      this.config = req.config;
    },
    async check(this: { config?: ConfigSource }, olds: Props, news: Props) {
      return runtime().check(this.config, olds, news);
    },
    async diff(this: { config?: ConfigSource }, id: string, olds: Props, news: Props) {
      return runtime().diff(this.config, id, olds, news);
    },
    async create(this: { config?: ConfigSource }, inputs: Props) {
      return runtime().create(this.config, inputs);
    },
    async read(this: { config?: ConfigSource }, id: string, props?: Props) {
      return runtime().read(this.config, id, props);
    },
    async update(this: { config?: ConfigSource }, id: string, olds: Props, news: Props) {
      return runtime().update(this.config, id, olds, news);
    },
    async delete(this: { config?: ConfigSource }, id: string, props: Props) {
      return runtime().delete(this.config, id, props);
    },
  } as pulumi.dynamic.ResourceProvider;
}
