#!/usr/bin/env node
/**
 * `pulumi-resource-messaging`: the provider plugin the Pulumi engine starts for
 * `messaging:index:*` resources. As every plugin: started with the engine's address as its
 * argument, it listens on a free port of 127.0.0.1 and prints that port, alone on the first
 * line of stdout, which the engine reads (`sdk/go/common/resource/plugin/plugin.go`
 * `newPlugin`). A line for the user goes to the engine's `Log` (`./engine-log.ts`): the engine
 * hides a resource plugin's stderr.
 */
import { setFlagsFromString } from "node:v8";
import * as grpc from "@grpc/grpc-js";
import { PACKAGE_VERSION } from "../client/version";
import { engineAddress, engineLog } from "./engine-log";
import { watchEngine } from "./engine-watch";
import { MessagingProvider } from "./provider";
import { packageSchema } from "./schema";
import { resourceProviderDefinition, resourceProviderService } from "./service";

/**
 * The largest gRPC message the plugin takes or sends, as Pulumi's own hosts allow
 * (`maxRPCMessageSize` in `@pulumi/pulumi/runtime/settings.js`, `rpcutil.MaxRPCMessageSize` in
 * Go). grpc-js's default, 4 MiB, refused the `Check` of a 15,000-message batch: it carries the
 * old inputs and the new.
 */
export const MAX_RPC_MESSAGE_BYTES = 400 * 1024 * 1024;

/** Starts the plugin's gRPC server; resolves to its port once it listens. */
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

/**
 * What a batch from a file may cost the plugin: it reads the file twice (check, then the send)
 * and holds one call's messages at a time, but every message read is garbage the old generation
 * collects only at a full GC, which V8 lets wait until the heap is up to 4 times what the last
 * one left live. So, as `messaging send` does (`cli/commands/send/command.ts`, `cli/main.ts`): the heap
 * may grow by half before a full GC, and undici's WebAssembly parser stays on the baseline tier
 * (its optimizing compile alone peaks at about 30 MiB). Bench section 11 shows the peak RSS of
 * a 1,000,000-line file's first `up`.
 */
function boundMemory(): void {
  setFlagsFromString("--liftoff-only");
  setFlagsFromString("--heap-growing-percent=50");
}

if (require.main === module) {
  boundMemory();
  const args = process.argv.slice(2);
  const engine = engineAddress(args);
  // A plugin whose engine is gone stops, as a cancelled run does: nothing it did from now on
  // would be recorded, and the run that finishes the work resends under the same keys anyway.
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
