/**
 * Child-process entry of the local engine: runs one operation (preview, up, refresh,
 * destroy) of a Pulumi project under the real SDK, with the real dynamic-provider host.
 *
 *   node dist/engine/run-program.js <request.json>
 *
 * The request names the project directory, the state file and the result file. Stack
 * config reaches the program through PULUMI_CONFIG / PULUMI_CONFIG_SECRET_KEYS (set by the
 * parent, as the Pulumi CLI's language host sets them) and the provider through `configure`.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { Diagnostic, startEngineService } from "./engine-service";
import { LocalMonitor } from "./local-monitor";
import type { EngineResult, PlanStep } from "./plan";
import { ProviderHost, startProviderHost } from "./provider-host";
import type { ResourceState, StackState } from "./state";
import { loadState, saveState } from "./state";
import { loadTypeScript } from "./typescript";
import { isSecretWrapper, markSecretOutputs, plainProps } from "./secrets";

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
  const yaml = projectRequire(
    projectRequire.resolve("js-yaml", { paths: [path.dirname(projectRequire.resolve("@pulumi/pulumi/package.json"))] }),
  );
  const doc = yaml.load(fs.readFileSync(path.join(projectDir, "Pulumi.yaml"), "utf8")) as { name: string; main?: string };
  return { name: doc.name, main: path.resolve(projectDir, doc.main ?? ".") };
}

async function run(request: RunRequest): Promise<EngineResult> {
  const projectRequire = createRequire(path.join(request.projectDir, "package.json"));
  const project = readProject(request.projectDir, projectRequire);
  const prior = loadState(request.stateFile);
  const config = JSON.parse(process.env.PULUMI_CONFIG ?? "{}") as Record<string, string>;
  const secretKeys = JSON.parse(process.env.PULUMI_CONFIG_SECRET_KEYS ?? "[]") as string[];
  const diagnostics: Diagnostic[] = [];
  const result: EngineResult = {
    operation: request.operation,
    ok: true,
    steps: [],
    outputs: prior.outputs,
    errors: [],
    diagnostics,
    providerStderr: [],
  };
  // The host loads in its own process while this one loads the SDK and the program.
  const hostStarting = startProviderHost(request.projectDir, hostEnvironment(project.name, config));
  const fail = (message: string): void => {
    result.ok = false;
    if (!result.errors.includes(message)) {
      result.errors.push(message);
      diagnostics.push({ severity: "error", urn: "", message });
    }
  };
  let host: ProviderHost | undefined;
  try {
    const runsProgram = request.operation === "up" || request.operation === "preview";
    const program = runsProgram ? prepareProgram(request, project, projectRequire) : undefined;
    host = await hostStarting;
    // The default provider is configured with the whole stack config (target.go `GetPackageConfig`);
    // refresh and destroy configure it from its state, i.e. the config of the last up
    // (registry.go `Same`, reached through `EnsureProvider`).
    const provider = runsProgram ? { config, secretKeys } : (recordedProviderConfig(prior) ?? { config, secretKeys });
    await host.configure(provider.config, provider.secretKeys);
    let next: StackState;
    if (request.operation === "refresh") next = await refresh(host, prior, result, fail);
    else if (request.operation === "destroy")
      next = await destroy(deployment(host, prior, request, project.name, config, secretKeys, diagnostics), prior, result, fail);
    else next = await runProgram(request, project, projectRequire, program!, host, prior, config, secretKeys, result, fail);
    if (request.operation !== "preview") saveState(request.stateFile, next);
    result.outputs = request.operation === "preview" ? (displayUnknowns(next.outputs) as Record<string, unknown>) : next.outputs;
  } catch (error) {
    fail((error as Error).message);
  } finally {
    // Closed even when preparing the program failed: a provider host outlives its parent otherwise.
    host ??= await hostStarting.catch(() => undefined);
    await host?.close();
    result.providerStderr = host?.stderr() ?? [];
    // The CLI prints a provider's stderr as info diagnostics (plugin.go `newPlugin`, runtrace).
    for (const line of result.providerStderr) diagnostics.push({ severity: "info", urn: "", message: line });
  }
  return result;
}

function deployment(
  host: ProviderHost,
  prior: StackState,
  request: RunRequest,
  project: string,
  config: Record<string, string>,
  secretKeys: string[],
  diagnostics: Diagnostic[],
  sdkRequire?: NodeRequire,
): LocalMonitor {
  return new LocalMonitor({
    host,
    prior,
    preview: request.operation === "preview",
    project,
    stack: request.stack,
    config,
    secretKeys,
    diagnostics,
    resourceProto: sdkRequire?.("./proto/resource_pb"),
    Struct: sdkRequire?.("google-protobuf/google/protobuf/struct_pb").Struct,
  });
}

interface PreparedProgram {
  sdkRoot: string;
  sdkRequire: NodeRequire;
  /** What ts-node would print for the program, if it does not compile. */
  typeErrors?: string;
}

/** Loads the program's own copy of the SDK (the one its `require("@pulumi/pulumi")` loads) and its TypeScript. */
function prepareProgram(request: RunRequest, project: Project, projectRequire: NodeRequire): PreparedProgram {
  process.chdir(request.projectDir);
  const sdkRoot = path.dirname(projectRequire.resolve("@pulumi/pulumi/package.json"));
  const sdkRequire = createRequire(path.join(sdkRoot, "package.json"));
  sdkRequire("./index");
  return { sdkRoot, sdkRequire, typeErrors: loadTypeScript(projectRequire, request.projectDir, project.main) };
}

async function runProgram(
  request: RunRequest,
  project: Project,
  projectRequire: NodeRequire,
  { sdkRoot, sdkRequire, typeErrors }: PreparedProgram,
  host: ProviderHost,
  prior: StackState,
  config: Record<string, string>,
  secretKeys: string[],
  result: EngineResult,
  fail: (message: string) => void,
): Promise<StackState> {
  const pulumi = sdkRequire("./index");
  const settings = sdkRequire("./runtime/settings");
  const { getStore } = sdkRequire("./runtime/state");
  const { runInPulumiStack } = sdkRequire("./runtime/stack");
  const monitor = deployment(host, prior, request, project.name, config, secretKeys, result.diagnostics, sdkRequire);

  if (typeErrors) {
    result.steps.push(...monitor.steps);
    fail(typeErrors);
    // Nothing ran, so nothing changed: the prior state stays whole, pending deletes included.
    return { resources: prior.resources, outputs: prior.outputs };
  }

  const engine = await startEngineService(sdkRoot, result.diagnostics);
  // setMocks sets the SDK's feature flags; our monitor then replaces the mock one, and the
  // engine address makes `pulumi.log` reach the engine service.
  await pulumi.runtime.setMocks(
    { newResource: () => ({ id: "", state: {} }), call: () => ({}) },
    project.name,
    request.stack,
    request.operation === "preview",
  );
  getStore().settings.options.engineAddr = engine.address;
  settings.setMockOptions(monitor, project.name, request.stack, request.operation === "preview");

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
  } finally {
    await engine.close();
  }
  // The handlers stay installed: this process ends right after the run.
  result.errors.push(...monitor.errors);

  const registered = [...monitor.registered.values()];
  if (failures.length > 0 || monitor.errors.length > 0) {
    result.ok = false;
    for (const failure of failures) {
      const message = failure instanceof Error ? failure.message : String(failure);
      if (!result.errors.some((line) => message.includes(line) || line.includes(message))) fail(message);
    }
    result.steps.push(...monitor.steps);
    // Like the engine: what was not reached stays as it was; pending deletes of earlier runs
    // stay even when their URN was registered again (deployment.go keeps them out of the
    // olds); what this run replaced stays, pending deletion (step.go `CreateStep.Apply` sets `Delete`).
    const kept = prior.resources.filter((old) => old.delete || (!monitor.registered.has(old.urn) && !monitor.replaced.includes(old)));
    const pending = monitor.replaced.map((old): ResourceState => ({ ...old, delete: true }));
    return { resources: [...registered, ...kept, ...pending], outputs: prior.outputs };
  }
  // Then the deletes, newest first, after a successful program only: resources no longer in
  // the program, replaced ones, and those an earlier failed run left pending deletion
  // (step_generator.go `GenerateDeletes`).
  const deletes = [...prior.resources.filter((old) => old.delete || !monitor.registered.has(old.urn)), ...monitor.replaced];
  const kept = await monitor.deleteAll(deletes, (old) => (old.delete || monitor.replaced.includes(old) ? "delete-replaced" : "delete"));
  result.steps.push(...monitor.steps);
  result.errors.push(...monitor.errors.filter((message) => !result.errors.includes(message)));
  if (kept.length > 0) result.ok = false;
  return { resources: [...registered, ...kept], outputs: monitor.stackOutputs };
}

/**
 * `pulumi refresh`: Read each custom resource (not providers) with its id, inputs and
 * outputs; record what it returns, its inputs if it returned any, and no init errors (step.go
 * `RefreshStep.Apply`: only a Read that itself reports a partial failure keeps them, and the
 * dynamic-provider host never does). An empty id means the resource is gone. Then Diff is
 * called with the refreshed state as "old" and the old inputs as "new", to show what changed
 * (a Diff that fails, fails the refresh).
 */
async function refresh(host: ProviderHost, prior: StackState, result: EngineResult, fail: (message: string) => void): Promise<StackState> {
  const resources: ResourceState[] = [];
  for (const resource of prior.resources) {
    if (!resource.custom || resource.type.startsWith("pulumi:providers:")) {
      resources.push(resource);
      continue;
    }
    const step: PlanStep = { op: "refresh", urn: resource.urn, type: resource.type, name: resource.name, id: resource.id };
    result.steps.push(step);
    try {
      const read = await host.read(resource.urn, resource.id, plainProps(resource.outputs), plainProps(resource.inputs));
      if (read.id === "") continue;
      // Secrets keep their marks by name (provider_plugin.go `Read`, `annotateSecrets`).
      const outputs = markSecretOutputs(read.properties, resource.outputs, []);
      const inputs = read.inputs ? markSecretOutputs(read.inputs, resource.inputs, []) : resource.inputs;
      await host.diff(resource.urn, read.id, plainProps(outputs), plainProps(resource.inputs), plainProps(inputs));
      resources.push({ ...resource, id: read.id, outputs, inputs, initErrors: [] });
    } catch (error) {
      step.error = (error as Error).message;
      fail(step.error);
      resources.push(resource);
    }
  }
  return { resources, outputs: prior.outputs };
}

/** `pulumi destroy`: every resource deleted, newest first, by the delete rules (protect, retainOnDelete). */
async function destroy(
  monitor: LocalMonitor,
  prior: StackState,
  result: EngineResult,
  fail: (message: string) => void,
): Promise<StackState> {
  let remaining = prior.resources;
  try {
    remaining = await monitor.deleteAll(prior.resources, (resource) => (resource.delete ? "delete-replaced" : "delete"));
    if (remaining.length > 0) result.ok = false;
  } catch (error) {
    fail((error as Error).message);
  }
  result.steps.push(...monitor.steps);
  result.errors.push(...monitor.errors.filter((message) => !result.errors.includes(message)));
  return { resources: remaining, outputs: remaining.some((resource) => resource.custom) ? prior.outputs : {} };
}

/** The environment the engine gives a language plugin: the project's name and the stack config (plugin.go, language host). */
function hostEnvironment(project: string, config: Record<string, string>): NodeJS.ProcessEnv {
  const { PULUMI_CONFIG_SECRET_KEYS: _secretKeys, ...env } = process.env;
  return { ...env, PULUMI_NODEJS_PROJECT: project, PULUMI_PROJECT: project, PULUMI_CONFIG: JSON.stringify(config) };
}

/** The default provider's config as the last up recorded it, secrets unwrapped (as Configure receives it). */
function recordedProviderConfig(prior: StackState): { config: Record<string, string>; secretKeys: string[] } | undefined {
  const provider = prior.resources.find((resource) => resource.type === "pulumi:providers:pulumi-nodejs");
  if (!provider) return undefined;
  const secretKeys = Object.keys(provider.inputs).filter((key) => isSecretWrapper(provider.inputs[key]));
  return { config: plainProps(provider.inputs) as Record<string, string>, secretKeys };
}

/** The SDK's `rpc.unknownValue`: how a value not known yet reaches the engine in a preview. */
const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** A preview shows values not known yet by their type, as the CLI does (`output<string>`; properties.go `TypeString`). */
function displayUnknowns(value: unknown): unknown {
  if (value === UNKNOWN_VALUE) return "output<string>";
  if (Array.isArray(value)) return value.map(displayUnknowns);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, displayUnknowns(inner)]));
  return value;
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
