/**
 * Starts Pulumi's real dynamic-provider host (the process `pulumi up` runs for dynamic
 * resources) and calls it over gRPC exactly as the engine does.
 */
import { ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import * as path from "node:path";
import * as readline from "node:readline";
import { wrapSecret } from "./secrets";
import { urnName, urnType } from "./urn";
import type { Props } from "../../provider/protocol";

/** A check failure as the host returns it. */
export interface HostCheckFailure {
  property: string;
  reason: string;
}

/** `diff` as the engine receives it: only these fields cross the protocol. */
export interface HostDiff {
  changes: "none" | "some" | "unknown";
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/**
 * A create or update that failed after the service made the object: the host's
 * `ErrorResourceInitFailed{id, properties, reasons}` detail, which the engine reads as a partly made resource.
 * `message` is the gRPC status text, which the engine does not show: it shows the reasons.
 */
export class ResourceInitError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Record<string, unknown>,
    readonly reasons: string[],
  ) {
    super(message);
  }
}

/** A running provider host and typed calls to it. */
export interface ProviderHost {
  configure(config: Record<string, string>, secretKeys: string[]): Promise<void>;
  check(urn: string, olds: Props, news: Props): Promise<{ inputs: Props; failures: HostCheckFailure[] }>;
  diff(urn: string, id: string, olds: Props, news: Props, oldInputs: Props): Promise<HostDiff>;
  create(urn: string, props: Props): Promise<{ id: string; properties: Props }>;
  /** `inputs` is set when the provider returned inputs (the engine then records them). */
  read(urn: string, id: string, props: Props, inputs?: Props): Promise<{ id: string; properties: Props; inputs?: Props }>;
  update(urn: string, id: string, olds: Props, news: Props, oldInputs: Props): Promise<{ properties: Props }>;
  delete(urn: string, id: string, props: Props): Promise<void>;
  /** Lines the provider wrote to stderr (warnings such as "stays active in the service"). */
  stderr(): string[];
  close(): Promise<void>;
}

/** Longest wait for one provider call, in milliseconds. */
const CALL_DEADLINE_MS = 120_000;

/**
 * Spawns `@pulumi/pulumi/cmd/dynamic-provider` resolved from `projectDir` (as the engine
 * does, with the project as working directory) and connects to the port it prints.
 */
export async function startProviderHost(projectDir: string, env: NodeJS.ProcessEnv = process.env): Promise<ProviderHost> {
  const projectRequire = createRequire(path.join(projectDir, "package.json"));
  const sdkRoot = path.dirname(projectRequire.resolve("@pulumi/pulumi/package.json"));
  const sdkRequire = createRequire(path.join(sdkRoot, "package.json"));
  const grpc = sdkRequire("@grpc/grpc-js");
  const providerGrpc = sdkRequire("./proto/provider_grpc_pb");
  const proto = sdkRequire("./proto/provider_pb");
  const statusProto = sdkRequire("./proto/status_pb");
  const { Struct } = sdkRequire("google-protobuf/google/protobuf/struct_pb");

  const child: ChildProcess = spawn(process.execPath, [path.join(sdkRoot, "cmd/dynamic-provider/index.js"), "127.0.0.1:1"], {
    cwd: projectDir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stderrLines: string[] = [];
  readline.createInterface({ input: child.stderr! }).on("line", (line) => stderrLines.push(line));
  // "close" comes once the process has exited and its stdout and stderr are drained: only then
  // are all the lines it wrote in stderrLines ("exit" can come first).
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.once("line", (line) => resolve(Number(line.trim())));
    child.once("close", (code) => reject(new Error(`provider host exited (${code}) before printing its port: ${stderrLines.join("\n")}`)));
  });
  const client = new providerGrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());

  // A deadline, so a provider that never answers fails the run instead of hanging it.
  const call = <T>(method: string, request: unknown): Promise<T> =>
    new Promise((resolve, reject) => {
      client[method](request, new grpc.Metadata(), { deadline: Date.now() + CALL_DEADLINE_MS }, (error: any, response: T) =>
        error ? reject(toError(error)) : resolve(response),
      );
    });

  // Re-raises the host's "created but failed to initialise" detail as ResourceInitError.
  function toError(error: any): Error {
    const raw = error?.metadata?.get?.("grpc-status-details-bin")?.[0];
    if (raw) {
      const status = statusProto.Status.deserializeBinary(raw);
      for (const detail of status.getDetailsList()) {
        const failed = detail.unpack(proto.ErrorResourceInitFailed.deserializeBinary, "pulumirpc.ErrorResourceInitFailed");
        if (failed) {
          return new ResourceInitError(
            error.details ?? error.message,
            failed.getId(),
            failed.getProperties()?.toJavaScript() ?? {},
            failed.getReasonsList(),
          );
        }
      }
    }
    return new Error(error?.details ?? String(error));
  }
  /** A provider request for the resource `urn`, with an id and property structs as given. */
  function request(Type: any, urn: string, fields: { id?: string } & Record<string, Props | string | undefined>): unknown {
    const message = new Type();
    message.setUrn(urn);
    message.setType(urnType(urn));
    message.setName(urnName(urn));
    for (const [field, value] of Object.entries(fields)) {
      const setter = `set${field[0].toUpperCase()}${field.slice(1)}`;
      message[setter](typeof value === "string" ? value : Struct.fromJavaScript(value));
    }
    return message;
  }

  return {
    async configure(config, secretKeys) {
      const args: Props = {};
      for (const [key, value] of Object.entries(config)) {
        args[key] = secretKeys.includes(key) ? wrapSecret(value) : value;
      }
      const request = new proto.ConfigureRequest();
      request.setArgs(Struct.fromJavaScript(args));
      const variables = request.getVariablesMap();
      for (const [key, value] of Object.entries(config)) variables.set(key, value);
      await call("configure", request);
    },
    async check(urn, olds, news) {
      const response: any = await call("check", request(proto.CheckRequest, urn, { olds, news }));
      return {
        inputs: response.getInputs()?.toJavaScript() ?? {},
        failures: response.getFailuresList().map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    async diff(urn, id, olds, news, oldInputs) {
      const response: any = await call("diff", request(proto.DiffRequest, urn, { id, olds, news, oldInputs }));
      const changes = response.getChanges();
      const kinds = proto.DiffResponse.DiffChanges;
      return {
        changes: changes === kinds.DIFF_NONE ? "none" : changes === kinds.DIFF_SOME ? "some" : "unknown",
        replaces: response.getReplacesList(),
        deleteBeforeReplace: response.getDeletebeforereplace(),
      };
    },
    async create(urn, properties) {
      const response: any = await call("create", request(proto.CreateRequest, urn, { properties }));
      return { id: response.getId(), properties: response.getProperties()?.toJavaScript() ?? {} };
    },
    async read(urn, id, properties, inputs) {
      const response: any = await call("read", request(proto.ReadRequest, urn, { id, properties, ...(inputs ? { inputs } : {}) }));
      const returned = response.getInputs()?.toJavaScript();
      return {
        id: response.getId(),
        properties: response.getProperties()?.toJavaScript() ?? {},
        ...(returned ? { inputs: returned } : {}),
      };
    },
    async update(urn, id, olds, news, oldInputs) {
      const response: any = await call("update", request(proto.UpdateRequest, urn, { id, olds, news, oldInputs }));
      return { properties: response.getProperties()?.toJavaScript() ?? {} };
    },
    async delete(urn, id, properties) {
      await call("delete", request(proto.DeleteRequest, urn, { id, properties }));
    },
    stderr: () => [...stderrLines],
    async close() {
      client.close();
      if (child.exitCode === null && child.signalCode === null) child.kill();
      await closed;
    },
  };
}
