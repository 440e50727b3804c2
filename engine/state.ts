import * as fs from "node:fs";

type Props = Record<string, unknown>;

/** One resource as the local engine records it. */
export interface ResourceState {
  urn: string;
  type: string;
  name: string;
  id: string;
  inputs: Props;
  outputs: Props;
  retainOnDelete: boolean;
  secretOutputs: string[];
  /** Set when create reported "created but failed to initialise". */
  initError?: string;
}

/** A stack's recorded state: what `pulumi up` would keep in its backend. */
export interface StackState {
  resources: ResourceState[];
  outputs: Props;
}

export function loadState(file: string): StackState {
  if (!fs.existsSync(file)) return { resources: [], outputs: {} };
  return JSON.parse(fs.readFileSync(file, "utf8")) as StackState;
}

export function saveState(file: string, state: StackState): void {
  fs.writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}
