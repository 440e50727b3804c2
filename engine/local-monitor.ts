/**
 * A resource monitor for the real Pulumi SDK that plays the engine's part: for each
 * registered resource it calls the real dynamic-provider host (check, diff, create, update)
 * and answers the SDK with the outputs, as `pulumi up` would. In a preview nothing is
 * created and not-yet-known outputs stay unknown.
 */
import type { PlanStep } from "./plan";
import { ProviderHost, ResourceInitError } from "./provider-host";
import { markSecrets, secretKeys, unwrapSecrets } from "./secrets";
import type { ResourceState, StackState } from "./state";

type Props = Record<string, unknown>;
type Callback = (error: Error | null, response?: unknown) => void;

export interface LocalMonitorOptions {
  host: ProviderHost;
  prior: StackState;
  preview: boolean;
  project: string;
  stack: string;
  /** The SDK's generated protobuf modules (`@pulumi/pulumi/proto/resource_pb`, struct_pb). */
  resourceProto: any;
  Struct: any;
}

export class LocalMonitor {
  readonly steps: PlanStep[] = [];
  readonly errors: string[] = [];
  readonly registered = new Map<string, ResourceState>();
  stackOutputs: Props = {};
  private rootUrn = "";

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
    callback(new Error(`the local engine does not support invoking ${req.getTok()}`));
  }

  call(req: any, callback: Callback): void {
    callback(new Error(`the local engine does not support calling ${req.getTok()}`));
  }

  readResource(req: any, callback: Callback): void {
    callback(new Error(`the local engine cannot read ${req.getType()} ${req.getId()}: resource import/get is not supported`));
  }

  registerResourceOutputs(req: any, callback: Callback): void {
    if (req.getUrn() === this.rootUrn) this.stackOutputs = req.getOutputs()?.toJavaScript() ?? {};
    callback(null, {});
  }

  close(): void {}

  registerResource(req: any, callback: Callback): void {
    this.register(req).then(
      (response) => callback(null, response),
      (error: Error) => callback(error),
    );
  }

  private urn(type: string, name: string): string {
    return `urn:pulumi:${this.options.stack}::${this.options.project}::${type}::${name}`;
  }

  private respond(urn: string, id: string, outputs: Props): unknown {
    const response = new this.options.resourceProto.RegisterResourceResponse();
    response.setUrn(urn);
    response.setId(id);
    response.setObject(this.options.Struct.fromJavaScript(outputs));
    return response;
  }

  private async register(req: any): Promise<unknown> {
    const type: string = req.getType();
    const name: string = req.getName();
    const urn = this.urn(type, name);
    if (!req.getCustom()) {
      if (type === "pulumi:pulumi:Stack") this.rootUrn = urn;
      return this.respond(urn, "", {});
    }
    if (!type.startsWith("pulumi-nodejs:dynamic")) throw new Error(`the local engine runs dynamic resources only, not ${type}`);

    const { host, preview } = this.options;
    const raw: Props = req.getObject()?.toJavaScript() ?? {};
    const news = unwrapSecrets(raw) as Props;
    const old = this.options.prior.resources.find((resource) => resource.urn === urn);
    const checked = await host.check(urn, old?.inputs ?? {}, news);
    if (checked.failures.length > 0) {
      const lines = checked.failures.map((f) => `${type} resource '${name}': property ${f.property} has a problem: ${f.reason}`);
      this.errors.push(...lines);
      this.steps.push({ op: old ? "update" : "create", urn, type, name, id: old?.id ?? "", error: lines.join("\n") });
      throw new Error(lines.join("\n"));
    }
    const inputs = checked.inputs;
    const record = (id: string, outputs: Props, initError?: string): ResourceState => ({
      urn, type, name, id, inputs, outputs,
      retainOnDelete: req.getRetainondelete() === true,
      secretOutputs: [...new Set([...req.getAdditionalsecretoutputsList(), ...secretKeys(raw)])],
      ...(initError ? { initError } : {}),
    });

    let state: ResourceState;
    let step: PlanStep;
    let replaced: ResourceState | undefined;
    if (!old) {
      state = preview ? record("", inputs) : await this.create(urn, inputs, record);
      step = { op: "create", urn, type, name, id: state.id };
    } else {
      const diff = await host.diff(urn, old.id, old.outputs, inputs, old.inputs);
      if (diff.changes === "none" && !old.initError) {
        // As the engine's "same" step: the new inputs are recorded with the old outputs.
        state = record(old.id, old.outputs);
        step = { op: "same", urn, type, name, id: old.id };
      } else if (diff.replaces.length > 0) {
        state = preview ? record("", inputs) : await this.create(urn, inputs, record);
        step = { op: "replace", urn, type, name, id: state.id, replaces: diff.replaces };
        replaced = old;
      } else {
        state = preview
          ? record(old.id, { ...old.outputs, ...inputs })
          : record(old.id, (await host.update(urn, old.id, old.outputs, inputs)).properties);
        step = { op: "update", urn, type, name, id: old.id };
      }
    }
    this.steps.push(step);
    this.registered.set(urn, state);
    if (replaced && !preview) await this.deleteOld(replaced);
    return this.respond(urn, state.id, markSecrets(state.outputs, state.secretOutputs));
  }

  private async create(urn: string, inputs: Props, record: (id: string, outputs: Props, initError?: string) => ResourceState): Promise<ResourceState> {
    try {
      const created = await this.options.host.create(urn, inputs);
      return record(created.id, created.properties);
    } catch (error) {
      if (error instanceof ResourceInitError) {
        // Kept in state, as the engine keeps a resource that was created but failed to initialise.
        this.registered.set(urn, record(error.id, error.properties, error.message));
      }
      this.errors.push(`${urn}: ${(error as Error).message}`);
      throw error;
    }
  }

  /** Deletes (or, with retainOnDelete, only forgets) a replaced or removed resource. */
  async deleteOld(old: ResourceState): Promise<PlanStep> {
    const step: PlanStep = { op: old.retainOnDelete ? "delete[retain]" : "delete", urn: old.urn, type: old.type, name: old.name, id: old.id };
    if (!old.retainOnDelete && !this.options.preview) await this.options.host.delete(old.urn, old.id, old.outputs);
    this.steps.push(step);
    return step;
  }
}
