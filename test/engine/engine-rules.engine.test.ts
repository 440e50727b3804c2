/**
 * Engine rules the provider relies on, through the local engine (each rule cited in
 * engine/README.md): URNs built from the parent chain, protect, ignoreChanges, and
 * TypeScript programs type-checked as `pulumi up` does.
 */
import { useEngineSuite } from "./engine-suite";
import { dynamicResources, expectOk, opsByName, stateOf, stepsOf } from "./harness";

const API_KEY = "sk_test_rules_5e1d";
const URL_A = "https://hooks.example.com/shared-by-two-teams";

const suite = useEngineSuite(API_KEY, "component-stack");
const { serviceConfig: config } = suite;

test("two endpoints named alike under components of different types have their parents in their URNs and are two endpoints", async () => {
  const stack = suite.workspace.stack(suite.project, { config: config({ "component-stack:url": URL_A }) });
  const up = expectOk(await stack.up());
  expect(up.outputs.paymentsUrn).toBe(
    `urn:pulumi:${stack.stack}::component-stack::acme:index:PaymentsTeam$pulumi-nodejs:dynamic/messaging:WebhookEndpoint::hook`,
  );
  expect(up.outputs.paymentsHook).not.toBe(up.outputs.identityHook);
  expect(
    suite.emulator
      .endpoints()
      .filter((endpoint) => endpoint.url === URL_A)
      .map((endpoint) => endpoint.id)
      .sort(),
  ).toEqual([up.outputs.paymentsHook, up.outputs.identityHook].sort());
  // The components are in the state, as the engine records them (no provider, no id).
  expect(
    stateOf(stack)
      .resources.filter((resource) => resource.type.startsWith("acme:index:"))
      .map((resource) => resource.id),
  ).toEqual(["", ""]);
});

test("under components of one type, the same child name is a duplicate URN: the engine refuses the program", async () => {
  const stack = suite.workspace.stack(suite.project, { config: config({ "component-stack:sameType": "true" }) });
  const result = await stack.up();
  expect(result.ok).toBe(false);
  expect(result.errors.join("\n")).toMatch(
    /Duplicate resource URN 'urn:pulumi:.*::acme:index:PaymentsTeam\$pulumi-nodejs:dynamic\/messaging:WebhookEndpoint::hook'; try giving it a unique name/,
  );
});

test("ignoreChanges keeps the old value: a changed url replaces nothing", async () => {
  const stack = suite.workspace.stack(suite.project, { config: config({ "component-stack:ignoreUrl": "true" }) });
  expectOk(await stack.up());
  const changed = suite.workspace.stack(suite.project, {
    config: config({ "component-stack:ignoreUrl": "true", "component-stack:url": "https://hooks.example.com/elsewhere" }),
    continues: stack,
  });
  expect(opsByName(expectOk(await changed.up()))).toEqual({ hook: "same" });
  expect(dynamicResources(changed).map((resource) => resource.outputs.url)).toEqual([
    "https://hooks.example.com/shared",
    "https://hooks.example.com/shared",
  ]);
});

test("a replacement deletes the old resource at the end, or first with deleteBeforeReplace", async () => {
  for (const deleteBeforeReplace of [false, true]) {
    const extra = { "component-stack:deleteBeforeReplace": String(deleteBeforeReplace) };
    const stack = suite.workspace.stack(suite.project, { config: config(extra) });
    const first = expectOk(await stack.up());
    const moved = suite.workspace.stack(suite.project, {
      config: config({ ...extra, "component-stack:url": "https://hooks.example.com/moved" }),
      continues: stack,
    });
    const up = expectOk(await moved.up());
    const [oldPayments, oldIdentity] = [first.outputs.paymentsHook, first.outputs.identityHook];
    const [newPayments, newIdentity] = [up.outputs.paymentsHook, up.outputs.identityHook];
    const at = (op: string, id: unknown) => stepsOf(up).findIndex(([o, i]) => o === op && i === id);
    for (const [oldId, newId] of [
      [oldPayments, newPayments],
      [oldIdentity, newIdentity],
    ]) {
      expect(at("replace[retain]", newId)).toBeGreaterThanOrEqual(0);
      expect(at("delete-replaced[retain]", oldId)).toBeGreaterThanOrEqual(0);
      if (deleteBeforeReplace) expect(at("delete-replaced[retain]", oldId)).toBeLessThan(at("replace[retain]", newId));
    }
    if (!deleteBeforeReplace) {
      // Create-before-delete: every replacement is created before any original is deleted, at the end.
      expect(stepsOf(up).map(([op]) => op)).toEqual([
        "replace[retain]",
        "replace[retain]",
        "delete-replaced[retain]",
        "delete-replaced[retain]",
      ]);
    }
  }
});

test("a replacement whose create fails leaves the old resource live, not pending deletion", async () => {
  const stack = suite.workspace.stack(suite.project, { config: config() });
  const first = expectOk(await stack.up());
  const failing = suite.workspace.stack(suite.project, {
    config: config({ "messaging:apiKey": "sk_wrong_key", "component-stack:url": "https://hooks.example.com/moved-later" }),
    continues: stack,
  });
  expect((await failing.up()).ok).toBe(false);
  const hooks = dynamicResources(stack);
  expect(hooks.map((hook) => hook.id).sort()).toEqual([first.outputs.paymentsHook, first.outputs.identityHook].sort());
  expect(hooks.every((hook) => hook.delete === undefined)).toBe(true);
  // With the key fixed, the next up replaces both; the originals are forgotten (retained) only then.
  const fixed = suite.workspace.stack(suite.project, {
    config: config({ "component-stack:url": "https://hooks.example.com/moved-later" }),
    continues: stack,
  });
  const up = expectOk(await fixed.up());
  expect(
    stepsOf(up)
      .filter(([op]) => op === "delete-replaced[retain]")
      .map(([, id]) => id)
      .sort(),
  ).toEqual([first.outputs.paymentsHook, first.outputs.identityHook].sort());
});

test("a protected endpoint is neither replaced nor destroyed, and the engine says why", async () => {
  const stack = suite.workspace.stack(suite.project, { config: config({ "component-stack:protect": "true" }) });
  expectOk(await stack.up());
  const changed = suite.workspace.stack(suite.project, {
    config: config({ "component-stack:protect": "true", "component-stack:url": "https://hooks.example.com/moved" }),
    continues: stack,
  });
  const replace = await changed.up();
  expect(replace.ok).toBe(false);
  expect(replace.errors.join("\n")).toMatch(/unable to replace resource ".*::hook"\nas it is currently marked for protection/);
  // Destroy goes on past a protected resource, refusing each one; their parents and provider stay too.
  const destroy = await stack.destroy();
  expect(destroy.ok).toBe(false);
  const refusals = destroy.errors.filter((error) =>
    /cannot be deleted\nbecause it is protected.*pulumi state unprotect 'urn:/s.test(error),
  );
  expect(refusals).toHaveLength(2);
  expect(dynamicResources(stack)).toHaveLength(2);
  expect(stateOf(stack).resources.map((resource) => resource.type)).toEqual(
    expect.arrayContaining(["acme:index:PaymentsTeam", "acme:index:IdentityTeam", "pulumi:providers:pulumi-nodejs"]),
  );
});

test("a program with a type error fails as `pulumi up` fails it: before it runs, with ts-node's message", async () => {
  const broken = suite.workspace.project("type-error-stack");
  const stack = suite.workspace.stack(broken, { config: config() });
  const result = await stack.up();
  expect(result.ok).toBe(false);
  expect(result.errors.join("\n")).toMatch(
    /⨯ Unable to compile TypeScript:\nindex\.ts\(4,\d+\): error TS2322: Type 'string' is not assignable/,
  );
  expect(stepsOf(result)).toEqual([]);
});
