/**
 * The engine model's step rules (engine/step-rules.ts), one row per rule and branch, each
 * naming the pulumi/pulumi v3.239.0 source it models (`sg` is
 * pkg/resource/deploy/step_generator.go, `step` is pkg/resource/deploy/step.go). Pure
 * functions: no child process, no provider.
 */
import type { HostDiff } from "../../engine/provider-host";
import {
  deleteSchedule,
  deleteStep,
  firstCall,
  protectedReplaceMessage,
  refusal,
  stepFor,
  stepWithoutProvider,
  transitiveDependencies,
  withIgnoredChanges,
  type Condemned,
  type OldState,
  type Registration,
  type Step,
  type StepFacts,
} from "../../engine/step-rules";

const URN = "urn:pulumi:dev::proj::pulumi-nodejs:dynamic:Resource::main";

const registration = (over: Partial<Registration> = {}): Registration => ({
  type: "pulumi-nodejs:dynamic:Resource",
  name: "main",
  unmodelled: [],
  importId: "",
  ignoreChanges: [],
  protect: false,
  ...over,
});
const old = (over: Partial<OldState> = {}): OldState => ({
  id: "id-1",
  inputs: { url: "https://a.example", events: ["x"] },
  initErrors: [],
  protect: false,
  retainOnDelete: false,
  ...over,
});
const diff = (changes: HostDiff["changes"], replaces: string[] = [], deleteBeforeReplace = false): HostDiff => ({
  changes,
  replaces,
  deleteBeforeReplace,
});
const facts = (over: Partial<StepFacts> = {}): StepFacts => ({
  preview: false,
  registration: registration(),
  old: old(),
  inputs: { url: "https://a.example", events: ["x"] },
  diff: diff("none"),
  ...over,
});

describe("stepFor: the step of a custom resource", () => {
  const rows: Array<[rule: string, source: string, facts: StepFacts, step: Step]> = [
    [
      "no old state: create",
      "sg `continueStepsFromImport` (Case 4, NewCreateStep)",
      facts({ old: undefined, diff: undefined }),
      { kind: "create" },
    ],
    ["DiffNone, no init errors: same", "sg `continueStepsFromDiff` (deferred NewSameStep)", facts(), { kind: "same" }],
    [
      "DiffSome without replace keys: update",
      "sg `continueStepsFromDiff` (NewUpdateStep)",
      facts({ diff: diff("some") }),
      { kind: "update" },
    ],
    [
      "DiffNone over init errors: update",
      "sg `continueStepsFromDiff` (`hasInitErrors := len(old.InitErrors) > 0`)",
      facts({ old: old({ initErrors: ["half made"] }) }),
      { kind: "update" },
    ],
    [
      "DiffSome without replace keys over init errors: update",
      "sg `continueStepsFromDiff` (update before the hasInitErrors branch)",
      facts({ old: old({ initErrors: ["half made"] }), diff: diff("some") }),
      { kind: "update" },
    ],
    [
      "DiffUnknown with the same inputs: same",
      "sg `diffResource` (DiffUnknown: oldInputs.Diff(new))",
      facts({ diff: diff("unknown") }),
      { kind: "same" },
    ],
    [
      "DiffUnknown, a null input equals a missing one: same",
      "sdk/go/common/resource/properties_diff.go `PropertyMap.Diff`",
      facts({ diff: diff("unknown"), inputs: { url: "https://a.example", events: ["x"], description: null } }),
      { kind: "same" },
    ],
    [
      "DiffUnknown with other inputs: update",
      "sg `diffResource`",
      facts({ diff: diff("unknown"), inputs: { url: "https://b.example", events: ["x"] } }),
      { kind: "update" },
    ],
    [
      "DiffUnknown, a change only in an ignored property: same",
      "sg `diffResource` (processIgnoreChanges before its own diff)",
      facts({
        diff: diff("unknown"),
        registration: registration({ ignoreChanges: ["url"] }),
        inputs: { url: "https://b.example", events: ["x"] },
      }),
      { kind: "same" },
    ],
    [
      "DiffUnknown with replace keys and other inputs: replace",
      "sg `diffResource`, `continueStepsFromDiff`",
      facts({ diff: diff("unknown", ["url"]), inputs: { url: "https://b.example", events: ["x"] } }),
      { kind: "replace", op: "replace", deleteFirst: false, replaces: ["url"] },
    ],
    [
      "replace keys without changes: same (only DiffSome replaces)",
      "sg `continueStepsFromDiff` (`diff.Changes == plugin.DiffSome`)",
      facts({ diff: diff("none", ["url"]) }),
      { kind: "same" },
    ],
    [
      "DiffSome with replace keys: create-before-delete replace",
      "sg `continueStepsFromDiff` (NewCreateReplacementStep, NewReplaceStep)",
      facts({ diff: diff("some", ["url"]) }),
      { kind: "replace", op: "replace", deleteFirst: false, replaces: ["url"] },
    ],
    [
      "the provider's deleteBeforeReplace: delete-before-replace",
      "sg `continueStepsFromDiff` (`deleteBeforeReplace := diff.DeleteBeforeReplace`)",
      facts({ diff: diff("some", ["url"], true) }),
      { kind: "replace", op: "replace", deleteFirst: true, replaces: ["url"] },
    ],
    [
      "the program's deleteBeforeReplace: true overrides the provider's false",
      "sg `continueStepsFromDiff` (`if goal.DeleteBeforeReplace != nil`)",
      facts({ diff: diff("some", ["url"], false), registration: registration({ deleteBeforeReplace: true }) }),
      { kind: "replace", op: "replace", deleteFirst: true, replaces: ["url"] },
    ],
    [
      "the program's deleteBeforeReplace: false overrides the provider's true",
      "sg `continueStepsFromDiff` (`if goal.DeleteBeforeReplace != nil`)",
      facts({ diff: diff("some", ["url"], true), registration: registration({ deleteBeforeReplace: false }) }),
      { kind: "replace", op: "replace", deleteFirst: false, replaces: ["url"] },
    ],
    [
      "a retained resource's replacement shows [retain]",
      "pkg/backend/display/rows.go `addRetainStatusFlag`",
      facts({ diff: diff("some", ["url"]), old: old({ retainOnDelete: true }) }),
      { kind: "replace", op: "replace[retain]", deleteFirst: false, replaces: ["url"] },
    ],
    [
      "replacing a resource protected before and now: the update fails",
      "sg `continueStepsFromDiff` (`new.Protect && old.Protect`, BailErrorf)",
      facts({ diff: diff("some", ["url"]), old: old({ protect: true }), registration: registration({ protect: true }) }),
      { kind: "fail", op: "replace", message: protectedReplaceMessage(URN) },
    ],
    [
      "replacing a protected resource in a preview: reported, and the preview goes on",
      "sg `continueStepsFromDiff` (`if !sg.deployment.opts.DryRun` bail)",
      facts({ preview: true, diff: diff("some", ["url"]), old: old({ protect: true }), registration: registration({ protect: true }) }),
      { kind: "replace", op: "replace", deleteFirst: false, replaces: ["url"], reportedError: protectedReplaceMessage(URN) },
    ],
    [
      "protect set only now (not in the old state): the replacement goes ahead",
      "sg `continueStepsFromDiff` (`new.Protect && old.Protect`)",
      facts({ diff: diff("some", ["url"]), registration: registration({ protect: true }) }),
      { kind: "replace", op: "replace", deleteFirst: false, replaces: ["url"] },
    ],
    [
      "protect removed in this program: the replacement goes ahead",
      "sg `continueStepsFromDiff` (`new.Protect && old.Protect`)",
      facts({ diff: diff("some", ["url"]), old: old({ protect: true }) }),
      { kind: "replace", op: "replace", deleteFirst: false, replaces: ["url"] },
    ],
    [
      "protect does not stop an update",
      "sg `continueStepsFromDiff` (protect is checked on the replace branch only)",
      facts({ diff: diff("some"), old: old({ protect: true }), registration: registration({ protect: true }) }),
      { kind: "update" },
    ],
  ];

  test.each(rows)("%s (%s)", (_rule, _source, input, expected) => {
    expect(stepFor(URN, input)).toEqual(expected);
  });

  test("an existing resource without the provider's Diff is a caller's mistake, not a step", () => {
    expect(() => stepFor(URN, facts({ diff: undefined }))).toThrow(/need the provider's Diff/);
  });

  test("the protect message is the engine's", () => {
    expect(protectedReplaceMessage(URN)).toBe(
      `unable to replace resource "${URN}"\nas it is currently marked for protection. To unprotect the resource, ` +
        "remove the `protect` flag from the resource in your Pulumi program and run `pulumi up`",
    );
  });
});

describe("firstCall: Read for an import, else Check", () => {
  test.each([
    [
      "import: Read with the id, before any Check",
      "sg `generateSteps` → step `ImportStep.Apply`",
      registration({ importId: "we_1" }),
      old(),
      { kind: "import", id: "we_1" },
    ],
    [
      "a new resource: Check with no olds and the goal as given",
      "sg `continueStepsFromImport` (`old == nil`)",
      registration({ ignoreChanges: ["url"] }),
      undefined,
      { kind: "check", olds: {}, news: { url: "https://b.example", events: ["y"] } },
    ],
    [
      "an existing resource: Check with the old inputs, ignored properties put back",
      "sg `continueStepsFromImport`, `processIgnoreChanges`",
      registration({ ignoreChanges: ["url"] }),
      old(),
      { kind: "check", olds: old().inputs, news: { url: "https://a.example", events: ["y"] } },
    ],
  ] as const)("%s (%s)", (_rule, _source, reg, prior, expected) => {
    expect(firstCall(reg, { url: "https://b.example", events: ["y"] }, prior)).toEqual(expected);
  });

  test("an ignored property the old inputs lack is removed (sg `processIgnoreChanges`, `PropertyPath.Reset`)", () => {
    expect(withIgnoredChanges({ url: "u", description: "new" }, { url: "u" }, ["description"])).toEqual({ url: "u" });
  });
});

describe("stepWithoutProvider: components and the dynamic host's default provider", () => {
  test.each([
    ["no old state: create", undefined, { a: 1 }, "create"],
    ["equal properties: same (a null equals a missing key)", { a: 1, b: null }, { a: 1 }, "same"],
    ["other properties: update, never replace (registry.go `Diff`; sg `diff` with no provider)", { a: 1 }, { a: 2 }, "update"],
  ] as const)("%s", (_rule, prior, news, expected) => {
    expect(stepWithoutProvider(prior, news)).toBe(expected);
  });
});

describe("deleteStep (step `DeleteStep.Apply`)", () => {
  const resource = {
    urn: URN,
    type: "pulumi-nodejs:dynamic:Resource",
    custom: true,
    protect: false,
    retainOnDelete: false,
  };
  test.each([
    ["a custom resource: Delete is called", resource, "delete", false, { op: "delete", callsProvider: true }],
    [
      "retainOnDelete: forgotten, shown [retain]",
      { ...resource, retainOnDelete: true },
      "delete",
      false,
      { op: "delete[retain]", callsProvider: false },
    ],
    [
      "the old half of a replacement, retained",
      { ...resource, retainOnDelete: true },
      "delete-replaced",
      false,
      { op: "delete-replaced[retain]", callsProvider: false },
    ],
    ["a preview calls nothing", resource, "delete", true, { op: "delete", callsProvider: false }],
    ["a component has no provider", { ...resource, custom: false }, "delete", false, { op: "delete", callsProvider: false }],
    [
      "a provider resource: no provider call",
      { ...resource, type: "pulumi:providers:pulumi-nodejs" },
      "delete",
      false,
      { op: "delete", callsProvider: false },
    ],
    [
      "protected, but being replaced: deleted (`!s.replacing && s.old.Protect`)",
      { ...resource, protect: true },
      "delete-replaced",
      false,
      { op: "delete-replaced", callsProvider: true },
    ],
  ] as const)("%s", (_rule, old, kind, preview, expected) => {
    expect(deleteStep(old, kind, preview)).toEqual(expected);
  });

  test("protected: refused with the engine's message (deleteProtectedError), no provider call", () => {
    expect(deleteStep({ ...resource, protect: true }, "delete", false)).toEqual({
      op: "delete",
      callsProvider: false,
      refused:
        `resource "${URN}" cannot be deleted\nbecause it is protected. To unprotect the resource, either remove the \`protect\` flag ` +
        "from the resource in your Pulumi program and run `pulumi up`, or use the command:\n" +
        `\`pulumi state unprotect '${URN}'\``,
    });
  });
});

describe("refusal: what the model does not implement", () => {
  test("a registration using only modelled options passes", () => {
    expect(refusal(registration({ ignoreChanges: ["url"], protect: true, importId: "x" }))).toBeUndefined();
  });

  test.each([
    ["unmodelled options, named", registration({ unmodelled: ["aliases", "transforms"] }), "aliases, transforms"],
    ["a nested ignoreChanges path", registration({ ignoreChanges: ["tags.a"] }), "ignoreChanges paths other than top-level names"],
    ["ignoreChanges `*`", registration({ ignoreChanges: ["*"] }), "ignoreChanges paths other than top-level names"],
  ])("%s", (_rule, reg, named) => {
    expect(refusal(reg)).toBe(
      `the local engine does not model ${named}${named.startsWith("ignoreChanges") ? " (nested, `*`)" : ""} (pulumi-nodejs:dynamic:Resource "main")`,
    );
  });
});

describe("the delete schedule (sg `ScheduleDeletes`; graph `TransitiveDependenciesOf`)", () => {
  const urnOf = (name: string) => `urn:pulumi:dev::proj::pulumi-nodejs:dynamic:Resource::${name}`;
  const STACK = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev";
  const PROVIDER = "urn:pulumi:dev::proj::pulumi:providers:pulumi-nodejs::default";
  const stack: Condemned = { urn: STACK, parent: "", provider: "" };
  const provider: Condemned = { urn: PROVIDER, parent: "", provider: "" };
  const resource = (name: string, dependencies: string[] = [], over: Partial<Condemned> = {}): Condemned => ({
    urn: urnOf(name),
    parent: STACK,
    provider: `${PROVIDER}::id-1`,
    dependencies: dependencies.map(urnOf),
    ...over,
  });
  const names = (rounds: Condemned[][]) => rounds.map((round) => round.map((item) => item.urn.split("::").pop()));

  test("dependents first, round by round: a round holds what the next one's resources depend on", () => {
    const main = resource("main");
    const failing = resource("failing");
    const leaf = resource("leaf", ["failing"]);
    // Built from the bottom (what depends on nothing left) and reversed: `main` shares `failing`'s round.
    expect(names(deleteSchedule([leaf, failing, main, provider, stack]))).toEqual([["leaf"], ["failing", "main"], ["default", "proj-dev"]]);
  });

  test("a resource is deleted before its parent and its provider", () => {
    const child = resource("child", [], { parent: urnOf("component"), provider: `${PROVIDER}::id-1` });
    const component = resource("component", [], { provider: "" });
    expect(names(deleteSchedule([child, component, provider]))).toEqual([["child"], ["component", "default"]]);
  });

  test("transitive dependencies: dependencies, parents and providers, followed through", () => {
    const a = resource("a");
    const b = resource("b", ["a"]);
    const c = resource("c", ["b"]);
    const found = transitiveDependencies(c, [stack, provider, a, b, c]);
    expect(new Set([...found].map((item) => item.urn))).toEqual(new Set([urnOf("b"), urnOf("a"), STACK, PROVIDER]));
  });

  test("a URN held by a pending delete and a live resource: each side follows its own", () => {
    const oldA = resource("a", [], { delete: true });
    const newA = resource("a");
    const oldB = resource("b", ["a"], { delete: true });
    expect([...transitiveDependencies(oldB, [stack, provider, newA, oldA, oldB])]).toContain(oldA);
    expect([...transitiveDependencies(oldB, [stack, provider, newA, oldA, oldB])]).not.toContain(newA);
  });
});
