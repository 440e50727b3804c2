/**
 * Child-process entry of the local engine: runs one operation (preview, up, refresh,
 * destroy) of a Pulumi project under the real SDK, with the real dynamic-provider host.
 *
 *   node dist/engine/run-program.js <request.json>
 *
 * The request names the project directory, the state file and the result file. Stack
 * config reaches the program through PULUMI_CONFIG / PULUMI_CONFIG_SECRET_KEYS (set by the
 * parent, as the Pulumi CLI sets them) and the provider through `configure`.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { LocalMonitor } from "./local-monitor";
import type { EngineResult, PlanStep } from "./plan";
import { ProviderHost, startProviderHost } from "./provider-host";
import { loadState, saveState, StackState } from "./state";

export interface RunRequest {
  operation: EngineResult["operation"];
  projectDir: string;
  stack: string;
  stateFile: string;
  resultFile: string;
}

interface Project {
  name: string;
  main: string;
}

function readProject(projectDir: string, projectRequire: NodeRequire): Project {
  const yaml = projectRequire(projectRequire.resolve("js-yaml", { paths: [path.dirname(projectRequire.resolve("@pulumi/pulumi/package.json"))] }));
  const doc = yaml.load(fs.readFileSync(path.join(projectDir, "Pulumi.yaml"), "utf8")) as { name: string; main?: string };
  return { name: doc.name, main: path.resolve(projectDir, doc.main ?? ".") };
}

/** Lets the program be TypeScript, as the Pulumi CLI allows: transpile on require. */
function registerTypeScript(projectRequire: NodeRequire): void {
  const ts = projectRequire("typescript");
  require.extensions[".ts"] = (module: any, filename: string) => {
    const source = fs.readFileSync(filename, "utf8");
    const { outputText } = ts.transpileModule(source, {
      fileName: filename,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    });
    module._compile(outputText, filename);
  };
}

async function run(request: RunRequest): Promise<EngineResult> {
  const projectRequire = createRequire(path.join(request.projectDir, "package.json"));
  const project = readProject(request.projectDir, projectRequire);
  const prior = loadState(request.stateFile);
  const host = await startProviderHost(request.projectDir, { ...process.env, PULUMI_NODEJS_PROJECT: project.name, PULUMI_NODEJS_STACK: request.stack });
  const result: EngineResult = { operation: request.operation, ok: true, steps: [], outputs: prior.outputs, errors: [], providerStderr: [] };
  try {
    // The same config the program sees, passed as the CLI passes it (never written to disk).
    const config = JSON.parse(process.env.PULUMI_CONFIG ?? "{}") as Record<string, string>;
    await host.configure(config, JSON.parse(process.env.PULUMI_CONFIG_SECRET_KEYS ?? "[]") as string[]);
    let next: StackState;
    if (request.operation === "refresh") next = await refresh(host, prior, result.steps);
    else if (request.operation === "destroy") next = await destroy(host, prior, result.steps);
    else next = await runProgram(request, project, projectRequire, host, prior, result);
    if (request.operation !== "preview") saveState(request.stateFile, next);
    result.outputs = next.outputs;
  } catch (error) {
    result.ok = false;
    if (!result.errors.includes((error as Error).message)) result.errors.push((error as Error).message);
  } finally {
    await host.close();
    result.providerStderr = host.stderr();
  }
  return result;
}

async function runProgram(request: RunRequest, project: Project, projectRequire: NodeRequire, host: ProviderHost, prior: StackState, result: EngineResult): Promise<StackState> {
  process.chdir(request.projectDir);
  registerTypeScript(projectRequire);
  // The program's own copy of the SDK: the one its `require("@pulumi/pulumi")` loads.
  const sdkRoot = path.dirname(projectRequire.resolve("@pulumi/pulumi/package.json"));
  const sdkRequire = createRequire(path.join(sdkRoot, "package.json"));
  const pulumi = sdkRequire("./index");
  const settings = sdkRequire("./runtime/settings");
  const { runInPulumiStack } = sdkRequire("./runtime/stack");
  const preview = request.operation === "preview";

  const monitor = new LocalMonitor({
    host, prior, preview, project: project.name, stack: request.stack,
    resourceProto: sdkRequire("./proto/resource_pb"),
    Struct: sdkRequire("google-protobuf/google/protobuf/struct_pb").Struct,
  });
  // setMocks sets the SDK's feature flags; our monitor then replaces the mock one.
  await pulumi.runtime.setMocks({ newResource: () => ({ id: "", state: {} }), call: () => ({}) }, project.name, request.stack, preview);
  settings.setMockOptions(monitor, project.name, request.stack, preview);

  const failures: unknown[] = [];
  const onRejection = (reason: unknown) => failures.push(reason);
  // A failed registration surfaces as an unhandled rejection or exception, as under the CLI.
  process.on("unhandledRejection", onRejection);
  process.on("uncaughtException", onRejection);
  try {
    await runInPulumiStack(async () => projectRequire(project.main));
    await settings.waitForRPCs();
    // Let rejections of failed registrations surface before judging the run.
    await new Promise((resolve) => setImmediate(resolve));
  } catch (error) {
    failures.push(error);
  }
  // The handlers stay installed: this process ends right after the run.
  result.errors.push(...monitor.errors);

  const resources = [...monitor.registered.values()];
  if (failures.length > 0 || monitor.errors.length > 0) {
    result.ok = false;
    for (const failure of failures) {
      const message = failure instanceof Error ? failure.message : String(failure);
      if (!result.errors.some((line) => message.includes(line) || line.includes(message))) result.errors.push(message);
    }
    // Like the engine: what was not reached stays as it was.
    for (const old of prior.resources) if (!monitor.registered.has(old.urn)) resources.push(old);
    result.steps.push(...monitor.steps);
    return { resources, outputs: prior.outputs };
  }
  // Resources no longer in the program are deleted, newest first.
  for (const old of [...prior.resources].reverse()) {
    if (!monitor.registered.has(old.urn)) await monitor.deleteOld(old);
  }
  result.steps.push(...monitor.steps);
  return { resources, outputs: monitor.stackOutputs };
}

async function refresh(host: ProviderHost, prior: StackState, steps: PlanStep[]): Promise<StackState> {
  const resources = [];
  for (const resource of prior.resources) {
    const read = await host.read(resource.urn, resource.id, resource.outputs);
    resources.push({ ...resource, id: read.id, outputs: read.properties });
    steps.push({ op: "refresh", urn: resource.urn, type: resource.type, name: resource.name, id: read.id });
  }
  return { resources, outputs: prior.outputs };
}

async function destroy(host: ProviderHost, prior: StackState, steps: PlanStep[]): Promise<StackState> {
  for (const resource of [...prior.resources].reverse()) {
    if (!resource.retainOnDelete) await host.delete(resource.urn, resource.id, resource.outputs);
    steps.push({ op: resource.retainOnDelete ? "delete[retain]" : "delete", urn: resource.urn, type: resource.type, name: resource.name, id: resource.id });
  }
  return { resources: [], outputs: {} };
}

if (require.main === module) {
  const request = JSON.parse(fs.readFileSync(process.argv[2], "utf8")) as RunRequest;
  run(request).then(
    (result) => {
      fs.writeFileSync(request.resultFile, JSON.stringify(result));
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`local engine failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
