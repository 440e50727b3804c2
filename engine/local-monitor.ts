/**
 * The resource monitor the real SDK talks to while the program runs: for each registration
 * it gathers what the engine's step rules read (the request, the old state, the provider's
 * Check and Diff, calling the real dynamic-provider host or the package's plugin), asks them
 * (step-rules.ts) which step to take, and executes it. Each rule names its source in
 * pulumi/pulumi v3.239.0 (see engine/README.md); what it does not model it refuses.
 */
import { randomUUID } from "node:crypto";
import type { Diagnostic } from "./engine-service";
import { generateUrn, urnType } from "./urn";
import type { PlanStep, StepOp } from "./plan";
import { goPropertyValue, NATIVE_PACKAGE, registerNativeProvider } from "./native-provider";
import { ProviderHost, ResourceInitError } from "./provider-host";
import type { ProviderPlugin } from "./provider-plugin";
import { markSecretOutputs, plainProps, wrapSecret } from "./secrets";
import { defaultProviderState, type ResourceState, type StackState } from "./state";
import {
  deleteSchedule,
  deleteStep,
  firstCall,
  refusal,
  stepFor,
  stepWithoutProvider,
  transitiveDependencies,
  type Registration,
  type UnmodelledOption,
} from "./step-rules";

type Props = Record<string, unknown>;
type Callback = (error: Error | null, response?: unknown) => void;

const ROOT_STACK_TYPE = "pulumi:pulumi:Stack";
const DYNAMIC_PROVIDER_TYPE = "pulumi:providers:pulumi-nodejs";
/** `providers.UnknownID`: the rpc unknown value. */
const UNKNOWN_ID = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export interface LocalMonitorOptions {
  /** The dynamic-provider host, for `pulumi-nodejs:dynamic:*` resources. */
  host: ProviderHost;
  /** Starts the provider plugin of a package, for its resources (the native route); none: only dynamic resources run. */
  startPlugin?: (pkg: string) => Promise<ProviderPlugin>;
  /** Refresh and destroy: providers are configured from their recorded inputs, not the stack config (registry.go `Same`). */
  providersFromState?: boolean;
  prior: StackState;
  preview: boolean;
  project: string;
  stack: string;
  /** The stack config (`namespace:key` → value) and which keys are secret. */
  config: Record<string, string>;
  secretKeys: string[];
  diagnostics: Diagnostic[];
  /** The SDK's generated protobuf modules (`@pulumi/pulumi/proto/resource_pb`, struct_pb). */
  resourceProto: any;
  Struct: any;
}

/**
 * The provider that serves a resource, and how property maps cross to it: in plain text to
 * the dynamic host (no secrets accepted: the engine strips them and marks outputs by input
 * name, provider_plugin.go `annotateSecrets`), or with their secrets to a plugin that
 * accepted them (the engine then neither strips nor marks).
 */
export interface ProviderRoute {
  host: Pick<ProviderHost, "check" | "diff" | "create" | "read" | "update"> & {
    delete(urn: string, id: string, props: Props, oldInputs?: Props): Promise<void>;
  };
  acceptsSecrets: boolean;
  /** `<provider urn>::<provider id>`. */
  ref: string;
}

/**
 * hashicorp/go-multierror's list format, which `plugin.InitError.Error()` uses
 * (provider_plugin.go): the only text of an init failure the CLI prints.
 */
export function initErrorMessage(reasons: readonly string[]): string {
  if (reasons.length === 0) return "resource init failed";
  if (reasons.length === 1) return `1 error occurred:\n\t* ${reasons[0]}\n\n`;
  return `${reasons.length} errors occurred:\n\t${reasons.map((reason) => `* ${reason}`).join("\n\t")}\n\n`;
}

export class LocalMonitor {
  readonly steps: PlanStep[] = [];
  readonly errors: string[] = [];
  /** Resources registered by this run, in registration order. */
  readonly registered = new Map<string, ResourceState>();
  /** Replaced resources, deleted at the end of the deployment (create-before-delete). */
  readonly replaced: ResourceState[] = [];
  stackOutputs: Props = {};
  private rootUrn = "";
  /** Set by the first failed step: the engine cancels the deployment (step_executor.go `cancelDueToError`). */
  private failed = false;
  private providerRef?: string;
  /** The native package's provider, registered and configured on first use. */
  private nativeRoute?: Promise<ProviderRoute>;
  /** Plugins started by this deployment, closed by its caller. */
  readonly plugins: ProviderPlugin[] = [];
  /** URNs seen in this deployment, claimed as each registration arrives (step_generator.go `generateURN`). */
  private readonly urns = new Set<string>();

  constructor(private readonly options: LocalMonitorOptions) {}

  supportsFeature(req: any, callback: Callback): void {
    // Like the SDK's own mock monitor: Output values stay plain in inputs.
    const supported = req.getId() !== "outputValues";
    callback(null, { getHassupport: () => supported });
  }

  registerPackage(_req: any, callback: Callback): void {
    const response = new this.options.resourceProto.RegisterPackageResponse();
    response.setRef("local-engine");
    callback(null, response);
  }

  invoke(req: any, callback: Callback): void {
    callback(new Error(`the local engine does not model invokes (${req.getTok()})`));
  }

  call(req: any, callback: Callback): void {
    callback(new Error(`the local engine does not model method calls (${req.getTok()})`));
  }

  readResource(req: any, callback: Callback): void {
    callback(new Error(`the local engine does not model reading external resources (${req.getType()} ${req.getId()})`));
  }

  registerResourceOutputs(req: any, callback: Callback): void {
    const outputs = req.getOutputs()?.toJavaScript() ?? {};
    if (req.getUrn() === this.rootUrn) this.stackOutputs = outputs;
    else if (Object.keys(outputs).length > 0) {
      // The engine records a component's registered outputs in its state (step_executor.go `executeRegisterResourceOutputs`).
      callback(new Error(`the local engine does not model a component's registered outputs (${req.getUrn()})`));
      return;
    }
    callback(null, {});
  }

  close(): void {}

  registerResource(req: any, callback: Callback): void {
    this.register(req).then(
      (response) => callback(null, response),
      (error: Error) => callback(error),
    );
  }

  private error(urn: string, message: string): void {
    this.errors.push(message);
    this.options.diagnostics.push({ severity: "error", urn, message });
  }

  private respond(urn: string, id: string, outputs: Props): unknown {
    const response = new this.options.resourceProto.RegisterResourceResponse();
    response.setUrn(urn);
    response.setId(id);
    response.setObject(this.options.Struct.fromJavaScript(outputs));
    return response;
  }

  /** What the request asks, as the step rules read it (step-rules.ts `Registration`). */
  private registration(req: any): Registration {
    const unmodelled: UnmodelledOption[] = [];
    if (req.getAliasesList().length > 0 || req.getAliasurnsList().length > 0) unmodelled.push("aliases");
    const timeouts = req.getCustomtimeouts();
    if (timeouts && (timeouts.getCreate() || timeouts.getUpdate() || timeouts.getDelete())) unmodelled.push("customTimeouts");
    if (req.getDeletedwith()) unmodelled.push("deletedWith");
    if (req.getReplaceonchangesList().length > 0) unmodelled.push("replaceOnChanges");
    if (req.getReplaceWithList().length > 0) unmodelled.push("replaceWith");
    if (req.getReplacementTrigger()) unmodelled.push("replacementTrigger");
    if (req.getHooks()) unmodelled.push("hooks");
    if (req.getProvider() || req.getProvidersMap().getLength() > 0) unmodelled.push("provider/providers");
    if (req.getRemote()) unmodelled.push("remote components");
    if (req.getTransformsList().length > 0) unmodelled.push("transforms");
    return {
      type: req.getType(),
      name: req.getName(),
      unmodelled,
      importId: req.getImportid(),
      ignoreChanges: req.getIgnorechangesList(),
      protect: req.getProtect() === true,
      deleteBeforeReplace: req.getDeletebeforereplacedefined() ? req.getDeletebeforereplace() === true : undefined,
    };
  }

  private async register(req: any): Promise<unknown> {
    const registration = this.registration(req);
    const { type, name } = registration;
    const refused = refusal(registration);
    if (refused) throw new Error(refused);
    const parent: string = type === ROOT_STACK_TYPE ? "" : req.getParent() || this.rootUrn;
    const urn = generateUrn(this.options.stack, this.options.project, parent, type, name);
    if (this.urns.has(urn)) {
      // diag.GetDuplicateResourceURNError: the engine bails the deployment.
      const message = `Duplicate resource URN '${urn}'; try giving it a unique name`;
      this.failed = true;
      this.error(urn, message);
      throw new Error(message);
    }
    this.urns.add(urn);
    if (this.failed) throw new Error(`the deployment was cancelled after an earlier error; ${urn} was not registered`);

    const goal: Props = req.getObject()?.toJavaScript() ?? {};
    const old = this.options.prior.resources.find((resource) => resource.urn === urn && !resource.delete);
    const base = {
      urn,
      type,
      name,
      parent,
      // Unset, it is inherited from the parent (source_eval.go `inheritFromParent`).
      retainOnDelete: req.hasRetainondelete() ? req.getRetainondelete() === true : (this.registered.get(parent)?.retainOnDelete ?? false),
      protect: registration.protect,
      dependencies: registeredDependencies(req),
    };
    if (!req.getCustom()) {
      // Components have no provider: the engine compares their inputs itself (step_generator.go `diff`, no provider).
      if (type === ROOT_STACK_TYPE) this.rootUrn = urn;
      const op = stepWithoutProvider(old?.inputs, goal);
      this.steps.push({ op, urn, type, name, id: "" });
      this.registered.set(urn, { ...base, custom: false, id: "", provider: "", inputs: goal, outputs: old?.outputs ?? {}, initErrors: [] });
      return this.respond(urn, "", {});
    }
    if (req.getVersion()) throw new Error(`the local engine does not model plugin versions (${type} asks for ${req.getVersion()})`);
    try {
      const route = await this.routeFor(type);
      const { state, step } = await this.takeStep(req, registration, route, urn, goal, old, { ...base, custom: true, provider: route.ref });
      this.steps.push(step);
      // Secret outputs are marked in the state itself, so the checkpoint encrypts them: by input
      // name only where a provider that accepts no secrets answered them (provider_plugin.go
      // `Create`, `Update` call `annotateSecrets`; a same step keeps the old outputs as they
      // are, step.go `SameStep.Apply`), by additionalSecretOutputs always (step_executor.go
      // `continueExecuteStep`).
      const byName = route.acceptsSecrets || step.op === "same" ? {} : state.inputs;
      const marked = { ...state, outputs: markSecretOutputs(state.outputs, byName, req.getAdditionalsecretoutputsList()) };
      this.registered.set(urn, marked);
      return this.respond(urn, marked.id, marked.outputs);
    } catch (error) {
      this.failed = true;
      throw error;
    }
  }

  /**
   * The provider of a resource type: the dynamic host's default provider for dynamic
   * resources, the plugin's default provider for the native package's (its package is the
   * type's first part, `tokens.Type.Package`). Anything else is refused.
   */
  async routeFor(type: string): Promise<ProviderRoute> {
    if (type.startsWith("pulumi-nodejs:dynamic")) {
      const ref = this.options.providersFromState ? "" : this.defaultProvider();
      return { host: this.options.host, acceptsSecrets: false, ref };
    }
    if (type.split(":")[0] === NATIVE_PACKAGE && this.options.startPlugin) return (this.nativeRoute ??= this.nativeProvider());
    throw new Error(`the local engine runs dynamic resources and ${NATIVE_PACKAGE}:* resources only, not ${type}`);
  }

  private async nativeProvider(): Promise<ProviderRoute> {
    const plugin = await this.options.startPlugin!(NATIVE_PACKAGE);
    this.plugins.push(plugin);
    const { stack, project, config, secretKeys, prior, preview } = this.options;
    const fromState = this.options.providersFromState === true;
    const provider = await registerNativeProvider({
      pkg: NATIVE_PACKAGE,
      plugin,
      stack,
      project,
      config,
      secretKeys,
      prior,
      preview,
      fromState,
    });
    if (!fromState) {
      this.steps.push(provider.step);
      this.registered.set(provider.state.urn, provider.state);
    }
    return { host: plugin, acceptsSecrets: provider.acceptsSecrets, ref: `${provider.state.urn}::${provider.state.id}` };
  }

  /**
   * The default provider of dynamic resources, registered once per deployment with the
   * whole stack config as its inputs, secrets marked (target.go `GetPackageConfig`: "For
   * dynamic providers, we always pass the full configuration"). A config change updates it in
   * place: the host has no DiffConfig, so the registry compares inputs (registry.go `Diff`).
   */
  private defaultProvider(): string {
    if (this.providerRef) return this.providerRef;
    const { stack, project, config, secretKeys, prior, preview } = this.options;
    const urn = generateUrn(stack, project, "", DYNAMIC_PROVIDER_TYPE, "default");
    const inputs = Object.fromEntries(
      Object.entries(config).map(([key, value]) => [key, secretKeys.includes(key) ? wrapSecret(value) : value]),
    );
    const old = prior.resources.find((resource) => resource.urn === urn);
    // In a preview a new provider's id is the engine's UnknownID (the unknown sentinel).
    const id = old?.id ?? (preview ? UNKNOWN_ID : randomUUID());
    const op = stepWithoutProvider(old?.outputs, inputs);
    this.steps.push({ op, urn, type: DYNAMIC_PROVIDER_TYPE, name: "default", id });
    // A same step keeps the old outputs (step.go `SameStep.Apply`); a create or an update
    // answers with the inputs (registry.go `Create`, `Update`).
    const state = defaultProviderState(urn, DYNAMIC_PROVIDER_TYPE, id, inputs);
    this.registered.set(urn, op === "same" && old ? { ...state, outputs: old.outputs } : state);
    this.providerRef = `${urn}::${id}`;
    return this.providerRef;
  }

  /**
   * Takes the step the rules choose for a custom resource (step-rules.ts): gathers their
   * inputs (Check, Diff), asks them, and executes what they say (Create, Update, the deletes of
   * a replacement), recording the state each step leaves (step.go `*Step.Apply`).
   */
  private async takeStep(
    req: any,
    registration: Registration,
    route: ProviderRoute,
    urn: string,
    goal: Props,
    old: ResourceState | undefined,
    base: Omit<ResourceState, "id" | "inputs" | "outputs" | "initErrors">,
  ): Promise<{ state: ResourceState; step: PlanStep }> {
    const { preview } = this.options;
    const { host } = route;
    const plain = (props: Props): Props => (route.acceptsSecrets ? props : plainProps(props));
    // Outputs of a failed step get their secrets marked as on success (see `register`).
    const markFailed = (props: Props, inputs: Props, additional: readonly string[]): Props =>
      markSecretOutputs(props, route.acceptsSecrets ? {} : inputs, additional);
    const { type, name } = base;
    const step = (op: StepOp, id: string, extra: Partial<PlanStep> = {}): PlanStep => ({ op, urn, type, name, id, ...extra });
    const fail = (op: StepOp, id: string, message: string): never => {
      this.error(urn, message);
      this.steps.push(step(op, id, { error: message }));
      throw new Error(message);
    };

    const first = firstCall(registration, goal, old);
    if (first.kind === "import") {
      try {
        await host.read(urn, first.id, {});
      } catch (error) {
        return fail("import", first.id, (error as Error).message);
      }
      throw new Error(`the local engine does not model an import whose Read succeeds (${urn})`);
    }

    // The host accepts no secrets, so they go in plain and come back re-marked by name (provider_plugin.go `annotateSecrets`).
    const inputs = await this.check(route, urn, type, name, first.olds, first.news, goal);
    const additional: readonly string[] = req.getAdditionalsecretoutputsList();
    const diff = old ? await host.diff(urn, old.id, plain(old.outputs), plain(inputs), plain(old.inputs)) : undefined;
    const next = stepFor(urn, { preview, registration, old, inputs, diff });

    if (next.kind === "fail") return fail(next.op, old?.id ?? "", next.message);
    if (next.kind === "create") {
      // A preview does not call Create: the host has no preview support, so the engine uses the inputs (provider_plugin.go `Create`).
      if (preview) return { state: { ...base, id: "", inputs, outputs: inputs, initErrors: [] }, step: step("create", "") };
      return this.create(route, urn, inputs, additional, base, "create", step, fail);
    }
    // Past a create, the rules only answer for an old state.
    const prior = old!;
    if (next.kind === "same") {
      // "same": the new inputs are recorded with the old outputs.
      return {
        state: { ...base, id: prior.id, inputs, outputs: prior.outputs, initErrors: prior.initErrors },
        step: step("same", prior.id),
      };
    }
    if (next.kind === "update") {
      // A preview's Update answers with the new inputs (provider_plugin.go `Update`, no provider preview support).
      if (preview)
        return {
          state: { ...base, id: prior.id, inputs, outputs: inputs, initErrors: prior.initErrors },
          step: step("update", prior.id),
        };
      try {
        const updated = await host.update(urn, prior.id, plain(prior.outputs), plain(inputs), plain(prior.inputs));
        return { state: { ...base, id: prior.id, inputs, outputs: updated.properties, initErrors: [] }, step: step("update", prior.id) };
      } catch (error) {
        if (error instanceof ResourceInitError) {
          // Recorded with the old inputs, the partial outputs and the reasons (step.go `UpdateStep.Apply`;
          // pkg/engine/update.go `OnResourceStepPost`: "old inputs and new outputs"). The outputs'
          // secrets are marked first, by the new inputs (provider_plugin.go `Update` annotateSecrets;
          // step_executor.go `continueExecuteStep`).
          this.registered.set(urn, {
            ...base,
            id: prior.id,
            inputs: prior.inputs,
            outputs: markFailed(error.properties, inputs, additional),
            initErrors: error.reasons,
          });
          return fail("update", prior.id, initErrorMessage(error.reasons));
        }
        // A failed update leaves the old state as it was.
        this.registered.set(urn, prior);
        return fail("update", prior.id, (error as Error).message);
      }
    }

    // A replacement.
    if (next.reportedError) this.error(urn, next.reportedError);
    // The replacement is checked again with no olds (sg `continueStepsFromDiff`).
    const replacementInputs = await this.check(route, urn, type, name, {}, goal, inputs);
    // Refused in a preview too: the engine's plan would list those dependents.
    if (next.deleteFirst) {
      // The engine first works out which dependents must be replaced with it (sg
      // `calculateDependentReplacements`, a Diff of each against unknowns); not modelled.
      const dependent = this.options.prior.resources.find(
        (other) => !other.delete && other !== prior && (other.parent === prior.urn || (other.dependencies ?? []).includes(prior.urn)),
      );
      if (dependent)
        return fail(
          next.op,
          prior.id,
          `the local engine does not model a delete-before-replace of a resource others depend on (${urn}, on which ${dependent.urn} depends)`,
        );
    }
    const extra = { oldId: prior.id, replaces: next.replaces };
    const replaceStep = (o: StepOp, id: string, more?: Partial<PlanStep>) => step(o, id, { ...extra, ...more });
    if (preview)
      return {
        state: { ...base, id: "", inputs: replacementInputs, outputs: replacementInputs, initErrors: [] },
        step: step(next.op, "", extra),
      };
    if (next.deleteFirst) {
      await this.deleteResource(prior, "delete-replaced");
      try {
        return await this.create(route, urn, replacementInputs, additional, base, next.op, replaceStep, fail);
      } catch (error) {
        // The engine then keeps the deleted resource as PendingReplacement; not modelled.
        throw new Error(
          `the local engine does not model a failed create after a delete-before-replace (${urn}): ${(error as Error).message}`,
          { cause: error },
        );
      }
    }
    // The old resource is marked for deletion only once the create made something (step.go `CreateStep.Apply`).
    return this.create(route, urn, replacementInputs, additional, base, next.op, replaceStep, fail, () => this.replaced.push(prior));
  }

  /**
   * Check, its failures reported with the value `new.Inputs` holds at the time (sg
   * `issueCheckErrors`): the program's, before `ignoreChanges`, at the first Check; the first
   * Check's answer at a replacement's second.
   */
  private async check(
    route: ProviderRoute,
    urn: string,
    type: string,
    name: string,
    olds: Props,
    news: Props,
    shown: Props,
  ): Promise<Props> {
    const plain = (props: Props): Props => (route.acceptsSecrets ? props : plainProps(props));
    const checked = await route.host.check(urn, plain(olds), plain(news));
    if (checked.failures.length > 0) {
      // step_generator.go `issueCheckFailures` with diag.GetResourcePropertyInvalidValueError.
      const lines = checked.failures.map((failure) =>
        failure.property
          ? `${type} resource '${name}': property ${failure.property} value ${goPropertyValue(shown[failure.property])} has a problem: ${failure.reason}`
          : `${type} resource '${name}' has a problem: ${failure.reason}`,
      );
      for (const line of lines) this.error(urn, line);
      this.steps.push({ op: "create", urn, type, name, id: "", error: lines.join("\n") });
      throw new Error(lines.join("\n"));
    }
    // Only for a provider that accepts no secrets are they marked again by name (provider_plugin.go `Check`).
    return route.acceptsSecrets ? checked.inputs : markSecretOutputs(checked.inputs, news, []);
  }

  private async create(
    route: ProviderRoute,
    urn: string,
    inputs: Props,
    additional: readonly string[],
    base: Omit<ResourceState, "id" | "inputs" | "outputs" | "initErrors">,
    op: StepOp,
    step: (op: StepOp, id: string, extra?: Partial<PlanStep>) => PlanStep,
    fail: (op: StepOp, id: string, message: string) => never,
    onMade: () => void = () => {},
  ): Promise<{ state: ResourceState; step: PlanStep }> {
    // Nothing is recorded of a create that answers no id, init failure or not (provider_plugin.go `Create`).
    const noId = () => fail(op, "", `plugin for package '${urnType(urn).split(":")[0]}' returned empty resource.ID from create '${urn}'`);
    let created;
    try {
      created = await route.host.create(urn, route.acceptsSecrets ? inputs : plainProps(inputs));
    } catch (error) {
      if (!(error instanceof ResourceInitError)) return fail(op, "", (error as Error).message);
      if (error.id === "") return noId();
      onMade();
      // Kept in state with the partial outputs and the reasons (step.go `CreateStep.Apply`),
      // secrets marked as on success (step_executor.go `continueExecuteStep` runs for a failed step too).
      this.registered.set(urn, {
        ...base,
        id: error.id,
        inputs,
        outputs: markSecretOutputs(error.properties, route.acceptsSecrets ? {} : inputs, additional),
        initErrors: error.reasons,
      });
      return fail(op, error.id, initErrorMessage(error.reasons));
    }
    if (created.id === "") return noId();
    onMade();
    return { state: { ...base, id: created.id, inputs, outputs: created.properties, initErrors: [] }, step: step(op, created.id) };
  }

  /**
   * Deletes a resource from the stack (step.go `DeleteStep.Apply`): a retained one is only
   * forgotten (Delete is never called), a component or provider needs no call. A protected
   * one is refused with the engine's message; the deployment goes on past it (step_executor.go
   * `cancelDueToError` special-cases deleteProtectedError), and returns false. Any other
   * failed delete throws: the deployment is cancelled.
   */
  async deleteResource(old: ResourceState, kind: "delete" | "delete-replaced"): Promise<boolean> {
    const { op, refused, callsProvider } = deleteStep(old, kind, this.options.preview);
    const step: PlanStep = { op, urn: old.urn, type: old.type, name: old.name, id: old.id };
    this.steps.push(step);
    if (refused) {
      step.error = refused;
      this.error(old.urn, step.error);
      return false;
    }
    if (!callsProvider) return true;
    try {
      const route = await this.routeFor(old.type);
      await route.host.delete(
        old.urn,
        old.id,
        route.acceptsSecrets ? old.outputs : plainProps(old.outputs),
        route.acceptsSecrets ? old.inputs : undefined,
      );
      return true;
    } catch (error) {
      step.error = (error as Error).message;
      this.error(old.urn, step.error);
      throw error;
    }
  }

  /**
   * Deletes `resources` (given in state order) as the engine schedules them: dependents first,
   * round by round; a resource whose delete was refused keeps what it depends on in the stack;
   * a failed delete stops the deletes after its round. Returns the resources kept, in their
   * order; the errors are in `errors`.
   */
  async deleteAll(resources: ResourceState[], kind: (resource: ResourceState) => "delete" | "delete-replaced"): Promise<ResourceState[]> {
    // deployment_executor.go `performPostSteps`: the rounds of sg `ScheduleDeletes` in order,
    // each round's deletes all started (the engine runs them in parallel), less what a refused
    // (protected) delete depends on. A failed delete cancels the deployment
    // (step_executor.go `cancelDueToError`): no round after its own starts; what was deleted
    // stays deleted (snapshot.go `deleteSnapshotMutation.End` marks each delete done).
    const gone = new Set<ResourceState>();
    const keptFor = new Set<ResourceState>();
    let cancelled = false;
    for (const round of deleteSchedule([...resources].reverse())) {
      const refused: ResourceState[] = [];
      for (const resource of round) {
        if (keptFor.has(resource)) continue;
        try {
          if (await this.deleteResource(resource, kind(resource))) gone.add(resource);
          else refused.push(resource);
        } catch {
          cancelled = true;
        }
      }
      for (const resource of refused) for (const dependency of transitiveDependencies(resource, resources)) keptFor.add(dependency);
      if (cancelled) break;
    }
    return resources.filter((resource) => !gone.has(resource));
  }
}

/** The URNs a registration depends on besides its parent and provider: `dependencies` and every property's dependencies. */
function registeredDependencies(req: any): string[] {
  const urns = new Set<string>(req.getDependenciesList());
  req.getPropertydependenciesMap().forEach((entry: any) => {
    for (const urn of entry.getUrnsList()) urns.add(urn);
  });
  return [...urns];
}
