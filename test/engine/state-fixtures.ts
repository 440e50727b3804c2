/**
 * State as an earlier run or an earlier release left it, made by editing a stack's recorded
 * state between runs (as a user's upgrade or an old checkpoint presents it to the engine).
 */
import type { LocalStack } from "../../engine/local-engine";
import { loadState, saveState, type ResourceState } from "../../engine/state";

/** Replaces the one dynamic resource named `name` in the stack's state with `edit`'s result. */
export function editResource(stack: LocalStack, name: string, edit: (resource: ResourceState) => ResourceState): void {
  const state = loadState(stack.stateFile);
  const matches = state.resources.filter((resource) => resource.name === name && resource.type.startsWith("pulumi-nodejs:dynamic"));
  if (matches.length !== 1) throw new Error(`expected one resource named ${name}, found ${matches.length}`);
  saveState(stack.stateFile, {
    ...state,
    resources: state.resources.map((resource) => (resource === matches[0] ? edit(resource) : resource)),
  });
}

/**
 * Drops the one dynamic resource named `name` from the stack's state: what a run killed
 * while creating it leaves. The engine records the create only as a pending operation
 * (pkg/backend/snapshot.go, `OperationTypeCreating`), which `pulumi refresh` clears
 * (pkg/cmd/pulumi/operations/refresh.go `filterMapPendingCreates`; importing it instead needs
 * a Read, which a dynamic resource cannot answer): the next `up` creates it again.
 */
export function forgetResource(stack: LocalStack, name: string): void {
  const state = loadState(stack.stateFile);
  const kept = state.resources.filter((resource) => !(resource.name === name && resource.type.startsWith("pulumi-nodejs:dynamic")));
  if (kept.length !== state.resources.length - 1) throw new Error(`expected one resource named ${name}`);
  saveState(stack.stateFile, { ...state, resources: kept });
}

/** `props` without `keys`. */
export function without(props: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(props).filter(([key]) => !keys.includes(key)));
}
