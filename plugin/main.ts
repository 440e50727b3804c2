#!/usr/bin/env node
/**
 * `pulumi-resource-messaging`: the provider plugin the Pulumi engine starts for
 * `messaging:index:*` resources. As every plugin: started with the engine's address as its
 * argument, it listens on a free port of 127.0.0.1 and prints that port, alone on the first
 * line of stdout, which the engine reads (`sdk/go/common/resource/plugin/plugin.go`
 * `newPlugin`). Everything else it says goes to stderr, which the engine shows as info.
 */
import * as grpc from "@grpc/grpc-js";
import { ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { PACKAGE_VERSION } from "../client/version";
import { MessagingProvider } from "./provider";
import { packageSchema } from "./schema";
import { resourceProviderService } from "./service";

/** Starts the plugin's gRPC server; resolves to its port once it listens. */
export async function servePlugin(): Promise<{ port: number; server: grpc.Server }> {
  const server = new grpc.Server();
  let schema: string | undefined;
  server.addService(
    ResourceProviderService,
    resourceProviderService(new MessagingProvider(), PACKAGE_VERSION, () => (schema ??= JSON.stringify(packageSchema(PACKAGE_VERSION)))),
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return { port, server };
}

if (require.main === module) {
  servePlugin().then(
    ({ port }) => process.stdout.write(`${port}\n`),
    (error: unknown) => {
      process.stderr.write(`pulumi-resource-messaging: could not start: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
