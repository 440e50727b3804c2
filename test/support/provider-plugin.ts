/**
 * Starts a provider plugin executable as the engine does and calls it over gRPC as the
 * engine does once the plugin has answered Configure with `acceptSecrets: true`: property
 * maps travel with their secret wrappers (the engine keeps them whenever the plugin accepts
 * secrets), and no outputs are re-marked by input name (the engine does that only for a
 * plugin that does not accept secrets).
 */
import { ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as readline from "node:readline";
import * as grpc from "@grpc/grpc-js";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { EngineService } from "@pulumi/pulumi/proto/engine_grpc_pb";
import { LogSeverity, type LogRequest } from "@pulumi/pulumi/proto/engine_pb";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import type { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { HostCheckFailure, HostDiff, ResourceInitError } from "./provider-host";
import { wrapSecret } from "./secrets";
import { urnName, urnType } from "./urn";
import type { Props } from "../../provider/protocol";

/** A running provider plugin and typed calls to it, as the engine makes them. */
export interface ProviderPlugin {
  getPluginInfo(): Promise<string>;
  getSchema(): Promise<unknown>;
  /** The error of an RPC the engine may call that the plugin does not implement, as `{ code, details }`. */
  callRaw(method: string, request: unknown): Promise<unknown>;
  checkConfig(urn: string, olds: Props, news: Props): Promise<{ inputs: Props; failures: HostCheckFailure[] }>;
  diffConfig(urn: string, olds: Props, news: Props, oldInputs: Props): Promise<HostDiff>;
  /**
   * Configure with the package's config (`messaging:*` stack keys; the engine passes the
   * package's keys only, unqualified, as `args` with secrets wrapped, and as `variables` under
   * `<pkg>:config:<key>`). Resolves to Configure's answer.
   */
  configure(config: Record<string, string>, secretKeys: string[]): Promise<{ acceptSecrets: boolean; supportsPreview: boolean }>;
  check(urn: string, olds: Props, news: Props): Promise<{ inputs: Props; failures: HostCheckFailure[] }>;
  diff(urn: string, id: string, olds: Props, news: Props, oldInputs: Props): Promise<HostDiff>;
  create(urn: string, props: Props): Promise<{ id: string; properties: Props }>;
  read(urn: string, id: string, props: Props, inputs?: Props): Promise<{ id: string; properties: Props; inputs?: Props }>;
  update(urn: string, id: string, olds: Props, news: Props, oldInputs: Props): Promise<{ properties: Props }>;
  delete(urn: string, id: string, props: Props, oldInputs?: Props): Promise<void>;
  /** Lines the plugin wrote to stderr (the engine hides them, but for debug logging). */
  stderr(): string[];
  /**
   * The lines the plugin sent to the engine's `Log` so far, as `<severity>: <message>` (what
   * the user reads). A call's lines arrive before its answer.
   */
  logged(): string[];
  /** Stops the stand-in engine, as a `pulumi` killed mid-run would go. */
  stopEngine(): Promise<void>;
  /** Resolves with the plugin's exit code once it has exited (null when a signal ended it). */
  exited(): Promise<number | null>;
  close(): Promise<void>;
}

/** Longest wait for one plugin call, in milliseconds. */
const CALL_DEADLINE_MS = 120_000;

/** `exec.LookPath`: the first executable file named `name` on `PATH`. */
export function lookPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here: next directory
    }
  }
  return undefined;
}

/**
 * Runs `executable` with an engine's address (a stand-in serving `Log`) as its only argument, in `cwd`, and reads the
 * port from the first line of its stdout, as the engine does when it starts a plugin.
 */
export async function startProviderPlugin(executable: string, options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<ProviderPlugin> {
  const engine = await startEngine();
  const child: ChildProcess = spawn(executable, [engine.address], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stderrLines: string[] = [];
  readline.createInterface({ input: child.stderr! }).on("line", (line) => stderrLines.push(line));
  // "close" comes once the process has exited and its stdout and stderr are drained: only then
  // are all the lines it wrote in stderrLines ("exit" can come first).
  const closed = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once("line", (line) => resolve(Number(line.trim())));
    child.once("error", reject);
    child.once("close", (code) => reject(new Error(`plugin exited (${code}) before printing its port: ${stderrLines.join("\n")}`)));
  }).catch(async (error: unknown) => {
    await engine.close();
    throw error;
  });
  const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());

  const call = <T>(method: string, request: unknown): Promise<T> =>
    new Promise((resolve, reject) => {
      (client as any)[method](request, new grpc.Metadata(), { deadline: Date.now() + CALL_DEADLINE_MS }, (error: any, response: T) =>
        error ? reject(toError(error)) : resolve(response),
      );
    });

  /** The engine's `parseError`: init-failure details become ResourceInitError; anything else keeps its code. */
  function toError(error: any): Error {
    const raw = error?.metadata?.get?.("grpc-status-details-bin")?.[0];
    if (raw) {
      for (const detail of Status.deserializeBinary(raw).getDetailsList() as Any[]) {
        const failed = detail.unpack(proto.ErrorResourceInitFailed.deserializeBinary, "pulumirpc.ErrorResourceInitFailed");
        if (failed) {
          return new ResourceInitError(
            error.details ?? error.message,
            failed.getId(),
            toJs(failed.getProperties()),
            failed.getReasonsList(),
          );
        }
      }
    }
    return Object.assign(new Error(error?.details ?? String(error)), { code: error?.code });
  }

  function request<T extends { setUrn(v: string): unknown; setType(v: string): unknown; setName(v: string): unknown }>(
    message: T,
    urn: string,
  ): T {
    message.setUrn(urn);
    message.setType(urnType(urn));
    message.setName(urnName(urn));
    return message;
  }
  const checkResult = (response: proto.CheckResponse) => ({
    inputs: toJs(response.getInputs()),
    failures: response.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
  });
  const diffResult = (response: proto.DiffResponse): HostDiff => {
    // A detailed diff can ask for a replacement on its own (the engine replaces on any
    // detailed kind that is a replace), which HostDiff does not carry: refused rather than
    // dropped, so no plan is kinder than the engine's.
    if (response.getHasdetaileddiff() && response.getDetaileddiffMap().getLength() > 0) {
      throw new Error("the local engine does not model a provider's detailedDiff (the engine replaces on a detailed replace kind)");
    }
    const kinds = proto.DiffResponse.DiffChanges;
    const changes = response.getChanges();
    return {
      changes: changes === kinds.DIFF_NONE ? "none" : changes === kinds.DIFF_SOME ? "some" : "unknown",
      replaces: response.getReplacesList(),
      deleteBeforeReplace: response.getDeletebeforereplace(),
    };
  };

  return {
    async getPluginInfo() {
      return (await call<PluginInfo>("getPluginInfo", new Empty())).getVersion();
    },
    async getSchema() {
      return JSON.parse((await call<proto.GetSchemaResponse>("getSchema", new proto.GetSchemaRequest())).getSchema());
    },
    callRaw: (method, message) => call(method, message),
    async checkConfig(urn, olds, news) {
      return checkResult(await call("checkConfig", request(new proto.CheckRequest(), urn).setOlds(toStruct(olds)).setNews(toStruct(news))));
    },
    async diffConfig(urn, olds, news, oldInputs) {
      const message = request(new proto.DiffRequest(), urn)
        .setOlds(toStruct(olds))
        .setNews(toStruct(news))
        .setOldInputs(toStruct(oldInputs));
      return diffResult(await call("diffConfig", message));
    },
    async configure(config, secretKeys) {
      const args: Props = {};
      const message = new proto.ConfigureRequest()
        .setAcceptsecrets(true)
        .setAcceptresources(true)
        .setSendsOldInputs(true)
        .setSendsOldInputsToDelete(true);
      for (const [key, value] of Object.entries(config)) {
        const [namespace, name] = key.split(":");
        if (!name) continue;
        args[name] = secretKeys.includes(key) ? wrapSecret(value) : value;
        message.getVariablesMap().set(`${namespace}:config:${name}`, value);
      }
      message.setArgs(toStruct(args));
      const response = await call<proto.ConfigureResponse>("configure", message);
      return { acceptSecrets: response.getAcceptsecrets(), supportsPreview: response.getSupportspreview() };
    },
    async check(urn, olds, news) {
      return checkResult(await call("check", request(new proto.CheckRequest(), urn).setOlds(toStruct(olds)).setNews(toStruct(news))));
    },
    async diff(urn, id, olds, news, oldInputs) {
      const message = request(new proto.DiffRequest(), urn)
        .setId(id)
        .setOlds(toStruct(olds))
        .setNews(toStruct(news))
        .setOldInputs(toStruct(oldInputs));
      return diffResult(await call("diff", message));
    },
    async create(urn, props) {
      const response = await call<proto.CreateResponse>("create", request(new proto.CreateRequest(), urn).setProperties(toStruct(props)));
      return { id: response.getId(), properties: toJs(response.getProperties()) };
    },
    async read(urn, id, props, inputs) {
      const message = request(new proto.ReadRequest(), urn).setId(id).setProperties(toStruct(props));
      if (inputs) message.setInputs(toStruct(inputs));
      const response = await call<proto.ReadResponse>("read", message);
      return {
        id: response.getId(),
        properties: toJs(response.getProperties()),
        ...(response.hasInputs() ? { inputs: toJs(response.getInputs()) } : {}),
      };
    },
    async update(urn, id, olds, news, oldInputs) {
      const message = request(new proto.UpdateRequest(), urn)
        .setId(id)
        .setOlds(toStruct(olds))
        .setNews(toStruct(news))
        .setOldInputs(toStruct(oldInputs));
      return { properties: toJs((await call<proto.UpdateResponse>("update", message)).getProperties()) };
    },
    async delete(urn, id, props, oldInputs = {}) {
      await call(
        "delete",
        request(new proto.DeleteRequest(), urn).setId(id).setProperties(toStruct(props)).setOldInputs(toStruct(oldInputs)),
      );
    },
    stderr: () => [...stderrLines],
    logged: () => [...engine.lines],
    stopEngine: () => engine.close(),
    exited: () => closed,
    async close() {
      client.close();
      if (child.exitCode === null && child.signalCode === null) child.kill();
      await closed;
      await engine.close();
    },
  };
}

/**
 * The engine's `EngineService` as far as a provider uses it: `Log`, each line kept as
 * `<severity>: <message>`. Listens on 127.0.0.1, port 0.
 */
async function startEngine(): Promise<{ address: string; lines: readonly string[]; close(): Promise<void> }> {
  const lines: string[] = [];
  let stopped = false;
  const server = new grpc.Server();
  const severities = Object.fromEntries(Object.entries(LogSeverity).map(([name, value]) => [value, name.toLowerCase()]));
  server.addService(EngineService, {
    log: (call: grpc.ServerUnaryCall<LogRequest, Empty>, callback: grpc.sendUnaryData<Empty>) => {
      lines.push(`${severities[call.request.getSeverity()]}: ${call.request.getMessage()}`);
      callback(null, new Empty());
    },
  } as never);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return {
    address: `127.0.0.1:${port}`,
    lines,
    // forceShutdown: the plugin's connections go too, as when the engine's process ends.
    close: async () => {
      if (!stopped) server.forceShutdown();
      stopped = true;
    },
  };
}

const toJs = (struct: Struct | undefined): Props => (struct?.toJavaScript() ?? {}) as Props;
const toStruct = (props: Props): Struct => Struct.fromJavaScript(props as never);
