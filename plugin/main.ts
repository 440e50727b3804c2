#!/usr/bin/env node
// `pulumi-resource-messaging`: the engine reads the port from the first line of stdout, and hides
// the plugin's stderr, so lines for the user go to the engine's `Log`.
import * as grpc from "@grpc/grpc-js";
import { boundSendingMemory } from "../client/sending-memory";
import { PACKAGE_VERSION } from "../client/version";
import { engineAddress, engineLog } from "../provider/engine-log";
import { watchEngine } from "./engine-watch";
import { MessagingProvider } from "./provider";
import { packageSchema } from "./schema";
import { resourceProviderDefinition, resourceProviderService } from "./service";

/** As Pulumi's own hosts allow (`rpcutil.MaxRPCMessageSize`): grpc-js's 4 MiB default is too small for a large batch's `Check`. */
export const MAX_RPC_MESSAGE_BYTES = 400 * 1024 * 1024;

export async function servePlugin(args: readonly string[] = []): Promise<{ port: number; server: grpc.Server }> {
  const server = new grpc.Server({
    "grpc.max_receive_message_length": MAX_RPC_MESSAGE_BYTES,
    "grpc.max_send_message_length": MAX_RPC_MESSAGE_BYTES,
  });
  let schema: string | undefined;
  const engine = engineAddress(args);
  const provider = new MessagingProvider(undefined, engine === undefined ? undefined : engineLog(engine));
  server.addService(
    resourceProviderDefinition,
    resourceProviderService(provider, PACKAGE_VERSION, () => (schema ??= JSON.stringify(packageSchema(PACKAGE_VERSION)))),
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return { port, server };
}

if (require.main === module) {
  boundSendingMemory();
  const args = process.argv.slice(2);
  const engine = engineAddress(args);
  // Nothing done after the engine is gone would be recorded, and the run that finishes the work resends under the same keys.
  if (engine !== undefined) {
    watchEngine(engine, () => {
      process.stderr.write(`pulumi-resource-messaging: the engine at ${engine} is gone; stopping.\n`);
      process.exit(1);
    });
  }
  servePlugin(args).then(
    ({ port }) => process.stdout.write(`${port}\n`),
    (error: unknown) => {
      process.stderr.write(`pulumi-resource-messaging: could not start: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
