/** A stack's checkpoint as the local engine keeps it: the fields of the engine's resource state that it models. */
import * as fs from "node:fs";
import { openSecrets, sealSecrets } from "./secrets";

type Props = Record<string, unknown>;

/** One resource, as `resource.State` records it. */
export interface ResourceState {
  urn: string;
  type: string;
  name: string;
  /** False for component resources (no provider, no id). */
  custom: boolean;
  id: string;
  /** The parent's URN; the root stack's for top-level resources ("" for the stack itself). */
  parent: string;
  /** `<provider urn>::<provider id>` for custom resources. */
  provider: string;
  inputs: Props;
  /** Secret values are held in the SDK's wrapper (see secrets.ts). */
  outputs: Props;
  /** The reasons of a "created but failed to initialise" (`InitErrors`). */
  initErrors: string[];
  retainOnDelete: boolean;
  protect: boolean;
  /**
   * URNs of the resources it depends on besides its parent and provider: the registration's
   * `dependencies` and property dependencies (`Dependencies`, `PropertyDependencies`); none
   * when absent.
   */
  dependencies?: string[];
  /**
   * A replaced resource whose deletion did not happen because the deployment failed first:
   * deleted with the next successful run's deletes (`Delete` in the engine's state;
   * step_generator.go `GenerateDeletes`).
   */
  delete?: true;
}

/**
 * A default provider's state: a custom resource named `default` with no parent and no provider
 * of its own, whose outputs are its inputs (registry.go `Create` returns the inputs as outputs).
 */
export function defaultProviderState(urn: string, type: string, id: string, inputs: Props): ResourceState {
  return {
    urn,
    type,
    name: "default",
    parent: "",
    custom: true,
    id,
    provider: "",
    inputs,
    outputs: inputs,
    initErrors: [],
    retainOnDelete: false,
    protect: false,
  };
}

export interface StackState {
  /** In dependency order: a resource after its parent and its provider. */
  resources: ResourceState[];
  /** The root stack's outputs. */
  outputs: Props;
}

export function loadState(file: string): StackState {
  if (!fs.existsSync(file)) return { resources: [], outputs: {} };
  return openSecrets(JSON.parse(fs.readFileSync(file, "utf8")), file) as StackState;
}

export function saveState(file: string, state: StackState): void {
  fs.writeFileSync(file, `${JSON.stringify(sealSecrets(state, file), null, 2)}\n`, { mode: 0o600 });
}
