/**
 * Engine rules that span runs, through the real SDK and provider host: a changed service URL
 * updates the default provider in place (endpoints stay), and a run that fails half-way
 * keeps a replaced endpoint pending deletion until a run succeeds.
 */
import { ENDPOINT, useEngineSuite } from "./engine-suite";
import { dynamicResources, expectOk, resourceNamed, stepsOf } from "./harness";
import { startRefusingProxy } from "./fake-services";
import type { EngineResult } from "../../engine/plan";
import { isSecretWrapper } from "../../engine/secrets";

const API_KEY = "sk_test_engine_runs_5d1e";

const suite = useEngineSuite(API_KEY, "endpoint-stack");
const config = suite.endpointConfig;
const MOVED = { ...ENDPOINT, url: "https://hooks.example.com/v2/payments" };

test("a changed messaging:baseUrl updates the default provider in place: endpoints stay, later calls go to the new URL", async () => {
  const proxy = await startRefusingProxy(suite.emulator.url);
  try {
    const stack = suite.workspace.stack(suite.project, { config: config(ENDPOINT) });
    const id = expectOk(await stack.up()).outputs.id as string;
    const before = suite.emulator.requestCount();

    const movedService = { "messaging:baseUrl": proxy.url };
    const moved = expectOk(await suite.workspace.stack(suite.project, { config: config(ENDPOINT, movedService), continues: stack }).up());
    // The host has no DiffConfig, so the engine updates the provider and never replaces it or its resources.
    expect(moved.steps.find((step) => step.type === "pulumi:providers:pulumi-nodejs")).toMatchObject({ op: "update" });
    expect(stepsOf(moved)).toEqual([["same", id]]);
    expect(suite.emulator.requestCount()).toBe(before);

    const changed = expectOk(await suite.workspace.stack(suite.project, { config: config(MOVED, movedService), continues: stack }).up());
    expect(changed.outputs.id).not.toBe(id);
    expect(proxy.forwarded()).toBe(1);
  } finally {
    await proxy.close();
  }
});

test("the same url, now a secret: the step is same, the input is recorded secret and the recorded outputs are kept as they were", async () => {
  const stack = suite.workspace.stack(suite.project, { config: config(ENDPOINT) });
  const id = expectOk(await stack.up()).outputs.id as string;
  const secretUrl = suite.workspace.stack(suite.project, {
    config: config(ENDPOINT, { "endpoint-stack:secretUrl": "true" }),
    continues: stack,
  });
  expect(stepsOf(expectOk(await secretUrl.up()))).toEqual([["same", id]]);
  const main = resourceNamed(stack, "main");
  expect(isSecretWrapper(main.inputs.url)).toBe(true);
  // A same step copies the old outputs (step.go `SameStep.Apply`); only Create, Update and Read
  // mark outputs secret by input name (provider_plugin.go `annotateSecrets`).
  expect(main.outputs.url).toBe(ENDPOINT.url);
});

test("a failed run keeps the replaced endpoint pending deletion, across failed runs; the next successful run deletes it", async () => {
  const proxy = await startRefusingProxy(suite.emulator.url);
  try {
    // `dependent`: a follower endpoint whose URL holds main's id, so replacing main replaces it too.
    const viaProxy = (endpoint: object) => config(endpoint, { "messaging:baseUrl": proxy.url, "endpoint-stack:dependent": "true" });
    const stack = suite.workspace.stack(suite.project, { config: viaProxy(ENDPOINT) });
    const oldMain = expectOk(await stack.up()).outputs.id as string;
    const oldFollower = resourceNamed(stack, "follower").id;

    // The service refuses the follower's new endpoint (its URL, form-encoded, holds main's new id).
    proxy.refuse = encodeURIComponent("https://hooks.example.com/we_");
    let newMain = "";
    for (const run of [1, 2]) {
      const failed = await suite.workspace.stack(suite.project, { config: viaProxy(MOVED), continues: stack }).up();
      expect(failed.ok).toBe(false);
      expect(stepsOf(failed).filter(([op]) => op.startsWith("delete"))).toEqual([]);
      const mains = dynamicResources(stack).filter((resource) => resource.name === "main");
      const live = mains.filter((resource) => !resource.delete);
      expect(live).toHaveLength(1);
      expect(mains.filter((resource) => resource.delete).map((resource) => resource.id)).toEqual([oldMain]);
      if (run === 1) newMain = live[0].id;
      expect(live[0].id).toBe(newMain);
      expect(resourceNamed(stack, "follower").id).toBe(oldFollower);
    }

    proxy.refuse = undefined;
    const done = expectOk(await suite.workspace.stack(suite.project, { config: viaProxy(MOVED), continues: stack }).up());
    const newFollower = resourceNamed(stack, "follower").id;
    expect(stepsOf(done)).toHaveLength(4);
    expect(stepsOf(done)).toEqual(
      expect.arrayContaining([
        ["same", newMain],
        ["replace[retain]", newFollower],
        ["delete-replaced[retain]", oldFollower],
        ["delete-replaced[retain]", oldMain],
      ]),
    );
    expect(dynamicResources(stack).map((resource) => [resource.name, resource.id, Boolean(resource.delete)])).toEqual(
      expect.arrayContaining([
        ["main", newMain, false],
        ["follower", newFollower, false],
      ]),
    );
    expect(dynamicResources(stack)).toHaveLength(2);
  } finally {
    await proxy.close();
  }
});

test("a provider that fails: refresh keeps what Read answered, and a failed delete keeps the run's work and what was deleted before it", async () => {
  const failing = (endpoint: object, on: boolean) =>
    config(endpoint, { "endpoint-stack:failing": String(on), "pulumi-nodejs:probe": "on" });
  const stack = suite.workspace.stack(suite.project, { config: failing(ENDPOINT, true) });
  expectOk(await stack.up());
  // The provider host gets only its own namespace of the stack config (plugin/host.go `Provider`).
  expect(resourceNamed(stack, "failing").outputs.hostConfig).toBe(JSON.stringify({ probe: "on" }));

  // The Diff after Read fails the refresh, but the refreshed state is recorded (step.go `RefreshStep.Apply`).
  const refreshed = await stack.refresh();
  expect(refreshed.ok).toBe(false);
  expect(refreshed.errors.join("\n")).toContain("diff refused for test");
  expect(resourceNamed(stack, "failing").outputs).toMatchObject({ refreshed: true });
  expect(resourceNamed(stack, "failing").outputs).not.toHaveProperty("hostConfig");

  const goneAfter = (result: EngineResult) =>
    result.steps.filter((step) => step.op.startsWith("delete") && !step.error).map((step) => step.id);

  // A destroy that fails keeps deleted what it deleted before the failure: `leaf`, which the
  // engine deletes before `failing` because it depends on it.
  const destroyed = await stack.destroy();
  expect(destroyed.ok).toBe(false);
  expect(dynamicResources(stack).map((resource) => resource.name)).not.toContain("leaf");
  expect(resourceNamed(stack, "failing").id).toBe("failing-1");
  for (const id of goneAfter(destroyed)) expect(dynamicResources(stack).map((resource) => resource.id)).not.toContain(id);

  // Replacing main and removing `failing`: its delete fails at the end, after main's replacement was made.
  const changed = await suite.workspace.stack(suite.project, { config: failing(MOVED, false), continues: stack }).up();
  expect(changed.ok).toBe(false);
  expect(changed.errors.join("\n")).toContain("delete refused for test");
  const newMain = changed.steps.find((step) => step.name === "main" && !step.op.startsWith("delete"))!.id;
  expect(
    dynamicResources(stack)
      .filter((resource) => !resource.delete)
      .map((resource) => [resource.name, resource.id]),
  ).toEqual(
    expect.arrayContaining([
      ["main", newMain],
      ["failing", "failing-1"],
    ]),
  );
  for (const id of goneAfter(changed))
    expect(
      dynamicResources(stack)
        .filter((resource) => !resource.delete)
        .map((r) => r.id),
    ).not.toContain(id);
});
