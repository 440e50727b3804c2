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
import { FAILED_RUN_EXIT_CODE, type EngineResult, type PlanStep } from "./plan";
import { findProviderPlugin, type ProjectPlugin } from "./native-provider";
import { ProviderHost, startProviderHost } from "./provider-host";
import { startProviderPlugin, type ProviderPlugin } from "./provider-plugin";
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
  /** Where the program and the provider host run: main's directory, or main itself when it is one. */
  pwd: string;
  /** `runtime.options` of Pulumi.yaml, which the engine hands to plugins as `PULUMI_RUNTIME_<NAME>`. */
  runtimeOptions: Record<string, unknown>;
  /** `plugins.providers` of Pulumi.yaml: provider plugins by directory. */
  providerPlugins: ProjectPlugin[];
}

function readProject(projectDir: string): Project {
  const projectRequire = createRequire(path.join(projectDir, "package.json"));
  const yaml = projectRequire(
    projectRequire.resolve("js-yaml", { paths: [path.dirname(projectRequire.resolve("@pulumi/pulumi/package.json"))] }),
  );
  const doc = yaml.load(fs.readFileSync(path.join(projectDir, "Pulumi.yaml"), "utf8")) as {
    name: string;
    main?: string;
    runtime?: string | { options?: Record<string, unknown> };
    plugins?: { providers?: ProjectPlugin[] };
  };
  const main = path.resolve(projectDir, doc.main ?? ".");
  // The engine runs the program and its plugins in main's directory, or in main itself when
  // it is one (pkg/engine/project.go `getPwdMain`).
  const pwd = fs.statSync(main).isDirectory() ? main : path.dirname(main);
  const runtimeOptions = typeof doc.runtime === "object" ? (doc.runtime.options ?? {}) : {};
  return { name: doc.name, main, pwd, runtimeOptions, providerPlugins: doc.plugins?.providers ?? [] };
}

async function run(request: RunRequest): Promise<EngineResult> {
  const project = readProject(request.projectDir);
  // The program's modules resolve from where it runs.
  const projectRequire = createRequire(path.join(project.pwd, "package.json"));
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
  const hostStarting = startProviderHost(project.pwd, hostEnvironment(project, config));
  const fail = (message: string): void => {
    result.ok = false;
    if (!result.errors.includes(message)) {
      result.errors.push(message);
      diagnostics.push({ severity: "error", urn: "", message });
    }
  };
  let host: ProviderHost | undefined;
  // Provider plugins of the native route, started when a deployment first needs one (plugin/host.go `Provider`).
  const plugins: ProviderPlugin[] = [];
  const startPlugin = async (pkg: string): Promise<ProviderPlugin> => {
    const executable = findProviderPlugin(pkg, request.projectDir, project.providerPlugins, process.env);
    const plugin = await startProviderPlugin(executable, { cwd: project.pwd, env: pluginEnvironment(project, config, pkg) });
    plugins.push(plugin);
    return plugin;
  };
  try {
    const runsProgram = request.operation === "up" || request.operation === "preview";
    const program = runsProgram ? prepareProgram(project, projectRequire) : undefined;
    host = await hostStarting;
    // The default provider is configured with the whole stack config (target.go `GetPackageConfig`);
    // refresh and destroy configure it from its state, i.e. the config of the last up
    // (registry.go `Same`, reached through `EnsureProvider`).
    const provider = runsProgram ? { config, secretKeys } : (recordedProviderConfig(prior) ?? { config, secretKeys });
    await host.configure(provider.config, provider.secretKeys);
    let next: StackState;
    if (request.operation === "refresh")
      next = await refresh(
        deployment(host, startPlugin, prior, request, project.name, config, secretKeys, diagnostics),
        prior,
        result,
        fail,
      );
    else if (request.operation === "destroy")
      next = await destroy(deployment(host, startPlugin, prior, request, project.name, config, secretKeys, diagnostics), prior, result);
    else next = await runProgram(request, project, projectRequire, program!, host, startPlugin, prior, config, secretKeys, result, fail);
    if (request.operation !== "preview") saveState(request.stateFile, next);
    result.outputs = request.operation === "preview" ? (displayUnknowns(next.outputs) as Record<string, unknown>) : next.outputs;
  } catch (error) {
    fail((error as Error).message);
  } finally {
    // Closed even when preparing the program failed: a provider host outlives its parent otherwise.
    host ??= await hostStarting.catch(() => undefined);
    await Promise.all([host?.close(), ...plugins.map((plugin) => plugin.close())]);
    result.providerStderr = [...(host?.stderr() ?? []), ...plugins.flatMap((plugin) => plugin.stderr())];
    // The CLI prints a provider's stderr as info diagnostics (plugin.go `newPlugin`, runtrace).
    for (const line of result.providerStderr) diagnostics.push({ severity: "info", urn: "", message: line });
  }
  return result;
}

function deployment(
  host: ProviderHost,
  startPlugin: (pkg: string) => Promise<ProviderPlugin>,
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
    startPlugin,
    providersFromState: request.operation === "refresh" || request.operation === "destroy",
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
function prepareProgram(project: Project, projectRequire: NodeRequire): PreparedProgram {
  process.chdir(project.pwd);
  const sdkRoot = path.dirname(projectRequire.resolve("@pulumi/pulumi/package.json"));
  const sdkRequire = createRequire(path.join(sdkRoot, "package.json"));
  sdkRequire("./index");
  return { sdkRoot, sdkRequire, typeErrors: loadTypeScript(projectRequire, project.pwd, project.main) };
}

async function runProgram(
  request: RunRequest,
  project: Project,
  projectRequire: NodeRequire,
  { sdkRoot, sdkRequire, typeErrors }: PreparedProgram,
  host: ProviderHost,
  startPlugin: (pkg: string) => Promise<ProviderPlugin>,
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
  const monitor = deployment(host, startPlugin, prior, request, project.name, config, secretKeys, result.diagnostics, sdkRequire);

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
  } catch (error) {
    failures.push(error);
  }
  try {
    // Every registration finishes before the run is judged, after a failed program too: the
    // stack's outputs fail as soon as one resource fails, while others may still be in Create.
    // The engine waits for its steps in flight (deployment_executor.go `Execute`,
    // `stepExec.WaitForCompletion()`); judged earlier, a resource the provider made would be
    // missing from the state, and its provider killed mid-call.
    await settings.waitForRPCs();
    // Let rejections of failed registrations surface before judging the run.
    await new Promise((resolve) => setImmediate(resolve));
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
    return { resources: [...registered, ...kept, ...pending], outputs: finalStackOutputs(prior, monitor, false) };
  }
  // Then the deletes, newest first, after a successful program only: resources no longer in
  // the program, replaced ones, and those an earlier failed run left pending deletion
  // (step_generator.go `GenerateDeletes`).
  const deletes = [...prior.resources.filter((old) => old.delete || !monitor.registered.has(old.urn)), ...monitor.replaced];
  const kept = await monitor.deleteAll(deletes, (old) => (old.delete || monitor.replaced.includes(old) ? "delete-replaced" : "delete"));
  result.steps.push(...monitor.steps);
  result.errors.push(...monitor.errors.filter((message) => !result.errors.includes(message)));
  if (kept.length > 0) result.ok = false;
  // A replaced resource whose delete did not happen stays pending deletion.
  const stillPending = kept.map((old): ResourceState => (monitor.replaced.includes(old) ? { ...old, delete: true } : old));
  return { resources: [...registered, ...stillPending], outputs: finalStackOutputs(prior, monitor, result.ok) };
}

/**
 * The stack's outputs after a run (deployment_executor.go `Execute`, "Finalize the stack
 * outputs"; step_executor.go `executeRegisterResourceOutputs`): the new ones after a success;
 * after a failure the old ones with any the program did register laid over them, since a
 * missing output cannot be taken as removed.
 */
function finalStackOutputs(prior: StackState, monitor: LocalMonitor, succeeded: boolean): Record<string, unknown> {
  return succeeded ? monitor.stackOutputs : { ...prior.outputs, ...monitor.stackOutputs };
}

/**
 * `pulumi refresh`: Read each custom resource (not providers) with its id, inputs and
 * outputs; record what it returns, its inputs if it returned any, and no init errors (step.go
 * `RefreshStep.Apply`: only a Read that itself reports a partial failure keeps them, and the
 * dynamic-provider host never does). An empty id means the resource is gone. Then Diff is
 * called with the refreshed state as "old" and the old inputs as "new", to show what changed
 * (a Diff that fails, fails the refresh).
 */
async function refresh(
  monitor: LocalMonitor,
  prior: StackState,
  result: EngineResult,
  fail: (message: string) => void,
): Promise<StackState> {
  const resources: ResourceState[] = [];
  for (const resource of prior.resources) {
    if (!resource.custom || resource.type.startsWith("pulumi:providers:")) {
      resources.push(resource);
      continue;
    }
    const step: PlanStep = { op: "refresh", urn: resource.urn, type: resource.type, name: resource.name, id: resource.id };
    result.steps.push(step);
    const failed = (error: unknown) => {
      step.error = (error as Error).message;
      fail(step.error);
    };
    let read;
    let route;
    try {
      route = await monitor.routeFor(resource.type);
      const wire = (props: Record<string, unknown>) => (route!.acceptsSecrets ? props : plainProps(props));
      read = await route.host.read(resource.urn, resource.id, wire(resource.outputs), wire(resource.inputs));
    } catch (error) {
      // A failed Read keeps the resource as it was.
      failed(error);
      resources.push(resource);
      continue;
    }
    if (read.id === "") continue;
    // Secrets keep their marks by name, unless the provider accepts secrets and marks them
    // itself (provider_plugin.go `Read`, `annotateSecrets`).
    const byName = (props: Record<string, unknown>, old: Record<string, unknown>) =>
      route.acceptsSecrets ? props : markSecretOutputs(props, old, []);
    const outputs = byName(read.properties, resource.outputs);
    const inputs = read.inputs ? byName(read.inputs, resource.inputs) : resource.inputs;
    // The refreshed state is set before the Diff, so it is recorded even when the Diff fails (step.go `RefreshStep.Apply`).
    resources.push({ ...resource, id: read.id, outputs, inputs, initErrors: [] });
    try {
      const wire = (props: Record<string, unknown>) => (route.acceptsSecrets ? props : plainProps(props));
      await route.host.diff(resource.urn, read.id, wire(outputs), wire(resource.inputs), wire(inputs));
    } catch (error) {
      failed(error);
    }
  }
  return { resources, outputs: prior.outputs };
}

/**
 * `pulumi destroy`: every resource deleted, newest first, by the delete rules (protect,
 * retainOnDelete); what was deleted before a failure stays deleted.
 */
async function destroy(monitor: LocalMonitor, prior: StackState, result: EngineResult): Promise<StackState> {
  const remaining = await monitor.deleteAll(prior.resources, (resource) => (resource.delete ? "delete-replaced" : "delete"));
  if (remaining.length > 0) result.ok = false;
  result.steps.push(...monitor.steps);
  result.errors.push(...monitor.errors.filter((message) => !result.errors.includes(message)));
  return { resources: remaining, outputs: remaining.some((resource) => resource.custom) ? prior.outputs : {} };
}

const HOST_NAMESPACE = "pulumi-nodejs:";

/**
 * The environment the engine gives the provider plugin (plugin/provider_plugin.go
 * `NewProvider`): the project's name, the runtime options as `PULUMI_RUNTIME_<NAME>`, and in
 * `PULUMI_CONFIG` only the plugin's own namespace, `pulumi-nodejs:*` without the namespace
 * (plugin/host.go `Provider`). The stack config reaches the provider through Configure.
 */
function hostEnvironment(project: Project, config: Record<string, string>): NodeJS.ProcessEnv {
  const { PULUMI_CONFIG_SECRET_KEYS: _secretKeys, PULUMI_CONFIG: _config, ...env } = process.env;
  const own = Object.entries(config).filter(([key]) => key.startsWith(HOST_NAMESPACE));
  const runtime = Object.entries(project.runtimeOptions).map(([name, value]) => [`PULUMI_RUNTIME_${name.toUpperCase()}`, String(value)]);
  return {
    ...env,
    ...Object.fromEntries(runtime),
    PULUMI_NODEJS_PROJECT: project.name,
    PULUMI_PROJECT: project.name,
    PULUMI_CONFIG: JSON.stringify(Object.fromEntries(own.map(([key, value]) => [key.slice(HOST_NAMESPACE.length), value]))),
  };
}

/**
 * The environment of a package's provider plugin (`provider_plugin.go` `NewProvider`,
 * `plugin/host.go` `Provider`): the project's name as `PULUMI_PROJECT` (`PULUMI_NODEJS_PROJECT`
 * is for the dynamic host only), the runtime options, and in `PULUMI_CONFIG` the package's own
 * keys without the namespace. The plugin reads its config from Configure, not from there.
 */
function pluginEnvironment(project: Project, config: Record<string, string>, pkg: string): NodeJS.ProcessEnv {
  const { PULUMI_CONFIG_SECRET_KEYS: _secretKeys, PULUMI_CONFIG: _config, PULUMI_NODEJS_PROJECT: _nodejs, ...env } = process.env;
  const own = Object.entries(config).filter(([key]) => key.split(":")[0] === pkg);
  const runtime = Object.entries(project.runtimeOptions).map(([name, value]) => [`PULUMI_RUNTIME_${name.toUpperCase()}`, String(value)]);
  return {
    ...env,
    ...Object.fromEntries(runtime),
    PULUMI_PROJECT: project.name,
    PULUMI_CONFIG: JSON.stringify(Object.fromEntries(own.map(([key, value]) => [key.slice(pkg.length + 1), value]))),
  };
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
      // A failed run ends as the language host ends a program that logged its error, with 32
      // (sdk/nodejs/cmd/run/index.ts `nodeJSProcessExitedAfterLoggingUserActionableMessage`):
      // the SDK reports promises still active (those of resources waiting on a failed one) only
      // when a program exits with 0.
      process.exit(result.ok ? 0 : FAILED_RUN_EXIT_CODE);
    },
    (error: unknown) => {
      process.stderr.write(`local engine failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
