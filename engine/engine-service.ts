/**
 * The engine's own gRPC service (`pulumirpc.Engine`) for the program: it receives the
 * program's log messages (`pulumi.log.warn`, …) as the CLI does, and keeps the root stack
 * resource's URN. Without it the SDK would print logs to the console instead.
 */
import { createRequire } from "node:module";
import * as path from "node:path";

/** A message as the CLI would print it. */
export interface Diagnostic {
  severity: "error" | "warning" | "info" | "debug";
  /** The resource it is about, or "" for the stack. */
  urn: string;
  message: string;
}

export interface EngineService {
  address: string;
  close(): Promise<void>;
}

/** Starts the service on 127.0.0.1 (port 0) with the program's own copy of the SDK's gRPC modules. */
export async function startEngineService(sdkRoot: string, diagnostics: Diagnostic[]): Promise<EngineService> {
  const sdkRequire = createRequire(path.join(sdkRoot, "package.json"));
  const grpc = sdkRequire("@grpc/grpc-js");
  const engineGrpc = sdkRequire("./proto/engine_grpc_pb");
  const engineProto = sdkRequire("./proto/engine_pb");
  const { Empty } = sdkRequire("google-protobuf/google/protobuf/empty_pb");
  const severities = engineProto.LogSeverity;
  const severityName = (value: number): Diagnostic["severity"] =>
    value === severities.ERROR ? "error" : value === severities.WARNING ? "warning" : value === severities.INFO ? "info" : "debug";

  let rootUrn = "";
  const server = new grpc.Server();
  server.addService(engineGrpc.EngineService, {
    log(call: any, callback: any) {
      diagnostics.push({
        severity: severityName(call.request.getSeverity()),
        urn: call.request.getUrn(),
        message: call.request.getMessage(),
      });
      callback(null, new Empty());
    },
    getRootResource(_call: any, callback: any) {
      const response = new engineProto.GetRootResourceResponse();
      response.setUrn(rootUrn);
      callback(null, response);
    },
    setRootResource(call: any, callback: any) {
      rootUrn = call.request.getUrn();
      callback(null, new engineProto.SetRootResourceResponse());
    },
    startDebugging(_call: any, callback: any) {
      callback({ code: grpc.status.UNIMPLEMENTED, details: "the local engine does not model debugging" });
    },
    requirePulumiVersion(_call: any, callback: any) {
      callback(null, new engineProto.RequirePulumiVersionResponse());
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error: Error | null, bound: number) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
}
