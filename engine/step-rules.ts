/**
 * The engine's step rules as pure functions: from what a registration asks, what the stack
 * recorded and what the provider answered (Check, Diff), to the step the engine takes. No
 * provider call, no state, no I/O: `local-monitor.ts` gathers the inputs, calls the provider,
 * asks these functions, and executes the steps. Each branch names its source in pulumi/pulumi
 * v3.239.0: `sg` is `pkg/resource/deploy/step_generator.go`, `step` is `pkg/resource/deploy/step.go`.
 * What the model does not implement is refused here, never approximated.
 */
import type { StepOp } from "./plan";
import { sameProperties } from "./properties";
import type { HostDiff } from "./provider-host";
import type { ResourceState } from "./state";

type Props = Record<string, unknown>;

/** Resource options the model does not implement, named as the SDK's resource options name them. */
export type UnmodelledOption =
  | "aliases"
  | "customTimeouts"
  | "deletedWith"
  | "replaceOnChanges"
  | "replaceWith"
  | "replacementTrigger"
  | "hooks"
  | "provider/providers"
  | "remote components"
  | "transforms";

/** What a `RegisterResource` request asks, as far as the step rules read it. */
export interface Registration {
  type: string;
  name: string;
  /** The options among {@link UnmodelledOption} that the request sets. */
  unmodelled: readonly UnmodelledOption[];
  /** `import`: the id to adopt; "" when not set. */
  importId: string;
  /** `ignoreChanges`, as property paths. */
  ignoreChanges: readonly string[];
  protect: boolean;
  /** The program's `deleteBeforeReplace`; undefined when it is not set (the provider's answer decides). */
  deleteBeforeReplace?: boolean;
}

/** The recorded state of a resource, as far as the step rules read it. */
export type OldState = Pick<ResourceState, "id" | "inputs" | "initErrors" | "protect" | "retainOnDelete">;

/** Only top-level property names are modelled in `ignoreChanges`. */
const TOP_LEVEL_NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * The refusal of a registration that uses what the model does not implement: the message,
 * or undefined when the model covers everything it asks.
 */
export function refusal(registration: Registration): string | undefined {
  const used: string[] = [...registration.unmodelled];
  if (registration.ignoreChanges.some((path) => !TOP_LEVEL_NAME.test(path)))
    used.push("ignoreChanges paths other than top-level names (nested, `*`)");
  if (used.length === 0) return undefined;
  return `the local engine does not model ${used.join(", ")} (${registration.type} "${registration.name}")`;
}

/**
 * `ignoreChanges`: each ignored top-level property takes its old input value, or is removed
 * when the old inputs lack it (sg `processIgnoreChanges`, `PropertyPath.Reset`).
 */
export function withIgnoredChanges(news: Props, oldInputs: Props, ignoreChanges: readonly string[]): Props {
  if (ignoreChanges.length === 0) return news;
  const inputs = { ...news };
  for (const key of ignoreChanges) {
    if (key in oldInputs) inputs[key] = oldInputs[key];
    else delete inputs[key];
  }
  return inputs;
}

/** The first call a registration of a custom resource makes to its provider. */
export type FirstCall =
  /** `import`: Read with the id and no inputs or state (sg `generateSteps` → step.go `ImportStep.Apply`). */
  | { kind: "import"; id: string }
  /** Check, with the old inputs as olds (none for a new resource) and the goal after ignoreChanges (sg `continueStepsFromImport`). */
  | { kind: "check"; olds: Props; news: Props };

export function firstCall(registration: Registration, goal: Props, old: OldState | undefined): FirstCall {
  if (registration.importId) return { kind: "import", id: registration.importId };
  if (!old) return { kind: "check", olds: {}, news: goal };
  return { kind: "check", olds: old.inputs, news: withIgnoredChanges(goal, old.inputs, registration.ignoreChanges) };
}

/** What the rules read to choose the step of a custom resource, once Check (and, for an existing resource, Diff) answered. */
export interface StepFacts {
  preview: boolean;
  registration: Pick<Registration, "protect" | "deleteBeforeReplace" | "ignoreChanges">;
  old: OldState | undefined;
  /** The checked inputs. */
  inputs: Props;
  /** The provider's Diff; required when there is an old state. */
  diff?: HostDiff;
}

/** The step a registration of a custom resource takes. */
export type Step =
  | { kind: "create" }
  | { kind: "same" }
  | { kind: "update" }
  | {
      kind: "replace";
      op: "replace" | "replace[retain]";
      /** Delete the old resource first (delete-before-replace), or create first and delete it at the end. */
      deleteFirst: boolean;
      /** The properties that force the replacement. */
      replaces: string[];
      /** An error the engine reports and goes past: a preview of a protected resource's replacement. */
      reportedError?: string;
    }
  /** The engine fails the step with `message`, and the deployment with it. */
  | { kind: "fail"; op: StepOp; message: string };

/** The engine's message for replacing a protected resource (sg `continueStepsFromDiff`). */
export function protectedReplaceMessage(urn: string): string {
  return (
    `unable to replace resource "${urn}"\nas it is currently marked for protection. To unprotect the resource, ` +
    "remove the `protect` flag from the resource in your Pulumi program and run `pulumi up`"
  );
}

/** The step of a custom resource (sg `generateSteps`, `continueStepsFromDiff`, `diffResource`). */
export function stepFor(urn: string, facts: StepFacts): Step {
  const { preview, registration, old, inputs, diff } = facts;
  // No old state: a create (sg `continueStepsFromImport`, "Case 4").
  if (!old) return { kind: "create" };
  if (!diff) throw new Error(`the step rules need the provider's Diff for an existing resource (${urn})`);

  // DIFF_UNKNOWN: the engine diffs the old inputs with the new ones, ignored changes put back (sg `diffResource`).
  const changes =
    diff.changes === "unknown"
      ? !sameProperties(old.inputs, withIgnoredChanges(inputs, old.inputs, registration.ignoreChanges))
      : diff.changes === "some";

  if (changes && diff.replaces.length > 0) {
    // A replacement (sg `continueStepsFromDiff`: `diff.Replace()`, from the replace keys the dynamic host sends).
    let reportedError: string | undefined;
    if (registration.protect && old.protect) {
      // The engine reports it; a preview goes on to show the diff, an update bails.
      if (!preview) return { kind: "fail", op: "replace", message: protectedReplaceMessage(urn) };
      reportedError = protectedReplaceMessage(urn);
    }
    return {
      kind: "replace",
      op: old.retainOnDelete ? "replace[retain]" : "replace",
      // The program's deleteBeforeReplace, when set, overrides the provider's.
      deleteFirst: registration.deleteBeforeReplace ?? diff.deleteBeforeReplace,
      replaces: diff.replaces,
      ...(reportedError === undefined ? {} : { reportedError }),
    };
  }
  // Changes without replace keys are an update ("If we fell through, it's an update"); so are
  // unchanged inputs over init errors, but only when there are reasons (`hasInitErrors := len(old.InitErrors) > 0`).
  if (changes || old.initErrors.length > 0) return { kind: "update" };
  return { kind: "same" };
}

/**
 * The step of a resource the engine diffs itself: a component (sg `diff` with no provider:
 * its inputs compared) or a default provider of the dynamic host, which has no DiffConfig
 * (`pkg/resource/deploy/providers/registry.go` `Diff`: its old outputs compared with the new
 * inputs, never replaced).
 */
export function stepWithoutProvider(old: Props | undefined, news: Props): "create" | "same" | "update" {
  if (!old) return "create";
  return sameProperties(old, news) ? "same" : "update";
}

/** What deleting a recorded resource does (step.go `DeleteStep.Apply`). */
export interface DeleteStep {
  op: StepOp;
  /** Set when the engine refuses the delete (a protected resource): the message it prints. */
  refused?: string;
  /** Whether the provider's Delete is called. */
  callsProvider: boolean;
}

/**
 * Deleting `old`, as a resource gone from the program or at destroy (`delete`), or as the old
 * half of a replacement (`delete-replaced`). A protected resource is refused, except when it
 * is being replaced (protect was checked then); a preview, a retained resource, a component
 * and a provider make no provider call. The CLI shows `[retain]` (display/rows.go `addRetainStatusFlag`).
 */
export function deleteStep(
  old: Pick<ResourceState, "urn" | "type" | "custom" | "protect" | "retainOnDelete">,
  kind: "delete" | "delete-replaced",
  preview: boolean,
): DeleteStep {
  const op: StepOp = old.retainOnDelete ? `${kind}[retain]` : kind;
  if (kind === "delete" && old.protect) {
    return {
      op,
      callsProvider: false,
      refused:
        `resource "${old.urn}" cannot be deleted\nbecause it is protected. To unprotect the resource, either remove the \`protect\` flag ` +
        "from the resource in your Pulumi program and run `pulumi up`, or use the command:\n" +
        `\`pulumi state unprotect '${old.urn}'\``,
    };
  }
  const callsProvider = !preview && old.custom && !old.retainOnDelete && !old.type.startsWith("pulumi:providers:");
  return { op, callsProvider };
}

/** The resources a delete schedule reads: who they are and what they depend on. */
export type Condemned = Pick<ResourceState, "urn" | "parent" | "provider" | "dependencies" | "delete">;

// What a resource depends on, by URN (resource.State `GetAllDependencies`): its parent, its
// provider, its dependencies and property dependencies.
function dependencyUrns(resource: Condemned): string[] {
  const urns = [...(resource.dependencies ?? [])];
  if (resource.parent) urns.push(resource.parent);
  if (resource.provider) urns.push(resource.provider.split("::").slice(0, -1).join("::"));
  return urns;
}

/**
 * The order of a run's deletes (sg `ScheduleDeletes`): rounds ("antichains") whose resources
 * depend on none of the others still to be deleted, the dependents' round first. The engine
 * runs each round's deletes in parallel and a round only once the one before it is done.
 * Within a round the resources keep the order given.
 */
export function deleteSchedule<R extends Condemned>(condemned: readonly R[]): R[][] {
  let remaining = [...condemned];
  const rounds: R[][] = [];
  while (remaining.length > 0) {
    const urns = (except: R) => new Set(remaining.filter((other) => other !== except).map((other) => other.urn));
    const round = remaining.filter((resource) => {
      const others = urns(resource);
      return !dependencyUrns(resource).some((urn) => others.has(urn));
    });
    if (round.length === 0) throw new Error("the local engine found a dependency cycle among the resources to delete");
    remaining = remaining.filter((resource) => !round.includes(resource));
    rounds.push(round);
  }
  return rounds.reverse();
}

/**
 * Everything `resource` depends on, directly or not, among `all` (graph.DependencyGraph
 * `TransitiveDependenciesOf`): a URN held both by a pending delete and by a live resource is
 * the pending delete's for a pending delete, the live one's for a live one.
 */
export function transitiveDependencies<R extends Condemned>(resource: R, all: readonly R[]): Set<R> {
  const lookup = (from: R, urn: string): R | undefined => {
    const matching = all.filter((candidate) => candidate.urn === urn);
    return matching.find((candidate) => (candidate.delete === true) === (from.delete === true)) ?? matching[0];
  };
  const found = new Set<R>();
  const visit = (from: R): void => {
    for (const urn of dependencyUrns(from)) {
      const dependency = lookup(from, urn);
      if (dependency && dependency !== resource && !found.has(dependency)) {
        found.add(dependency);
        visit(dependency);
      }
    }
  };
  visit(resource);
  return found;
}
