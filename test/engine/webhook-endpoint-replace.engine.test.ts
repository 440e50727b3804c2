/**
 * WebhookEndpoint replacements through the real engine path: every changed input replaces
 * the endpoint and retains the old one; preview unknowns flow into dependent endpoints.
 */
import { ENDPOINT, useEngineSuite } from "./engine-suite";
import { dynamicSteps, expectOk, opsByName, resourceNamed, stepsOf } from "./harness";

const API_KEY = "sk_test_engine_replace_2b8c";

const suite = useEngineSuite(API_KEY, "endpoint-stack");
const config = suite.endpointConfig;

describe("changes replace; the old endpoint is retained", () => {
  test("changing any input replaces the endpoint and keeps the old one in the service", async () => {
    // One stack, one input changed at a time: url, then events, format, description.
    const changes: Array<[string, Record<string, unknown>]> = [
      ["url", { url: "https://hooks.example.com/v2/payments" }],
      ["events", { events: ["payment.succeeded", "identity.verification.created"] }],
      ["format", { format: "cloudEvents" }],
      ["description", { description: "billing (v2)" }],
    ];
    const stack = suite.workspace.stack(suite.project, { config: config() });
    let oldId = expectOk(await stack.up()).outputs.id as string;
    let endpoint: Record<string, unknown> = { ...ENDPOINT };
    for (const [field, change] of changes) {
      endpoint = { ...endpoint, ...change };
      const changedStack = suite.workspace.stack(suite.project, { config: config(endpoint), continues: stack });
      const preview = expectOk(await changedStack.preview());
      expect(preview.steps.find((step) => step.name === "main")).toMatchObject({ op: "replace[retain]", replaces: [field] });

      const result = expectOk(await changedStack.up());
      const newId = result.outputs.id as string;
      expect(newId).toMatch(/^we_/);
      expect(newId).not.toBe(oldId);
      // Create the replacement, then (at the end) forget the retained original without calling Delete.
      expect(stepsOf(result)).toEqual([
        ["replace[retain]", newId],
        ["delete-replaced[retain]", oldId],
      ]);
      // Nothing was deleted in the service (it cannot be): both endpoints exist.
      const ids = suite.emulator.endpoints().map((recorded) => recorded.id);
      expect(ids).toEqual(expect.arrayContaining([oldId, newId]));
      // The engine's own `delete-replaced[retain]` step shows the old endpoint is kept; the
      // provider prints nothing from diff (it also runs at preview and refresh), and never
      // advises removing an endpoint the stack still holds.
      expect(preview.providerStderr).toEqual([]);
      expect(result.providerStderr).toEqual([]);
      oldId = newId;
    }
  });

  test("reordered or repeated events are not a change", async () => {
    const stack = suite.workspace.stack(suite.project, {
      config: config({ ...ENDPOINT, events: ["payment.succeeded", "identity.verification.created"] }),
    });
    expectOk(await stack.up());
    const before = suite.emulator.requestCount();
    const reordered = suite.workspace.stack(suite.project, {
      config: config({ ...ENDPOINT, events: ["identity.verification.created", "payment.succeeded", "payment.succeeded"] }),
      continues: stack,
    });
    expect(opsByName(expectOk(await reordered.up()))).toEqual({ main: "same" });
    expect(suite.emulator.requestCount()).toBe(before);
  });

  test("a duplicate event is sent once", async () => {
    const stack = suite.workspace.stack(suite.project, {
      config: config({ ...ENDPOINT, events: ["payment.succeeded", "payment.succeeded"] }),
    });
    const result = expectOk(await stack.up());
    expect(suite.emulator.endpoints().find((endpoint) => endpoint.id === result.outputs.id)?.events).toEqual(["payment.succeeded"]);
  });
});

describe("preview with unknown inputs", () => {
  test("an input built from another endpoint's id is unknown in preview and check accepts it", async () => {
    const stack = suite.workspace.stack(suite.project, { config: config(ENDPOINT, { "endpoint-stack:dependent": "true" }) });
    const preview = expectOk(await stack.preview());
    expect(opsByName(preview)).toEqual({ main: "create", follower: "create" });
    expect(preview.outputs.followerUrl).toBe("output<string>");

    const up = expectOk(await stack.up());
    expect(up.outputs.followerUrl).toBe(`https://hooks.example.com/${up.outputs.id}`);
  });

  test("with the first endpoint created, a change to it shows the follower's url as unknown: both replace", async () => {
    const stack = suite.workspace.stack(suite.project, { config: config(ENDPOINT, { "endpoint-stack:dependent": "true" }) });
    expectOk(await stack.up());
    const changed = suite.workspace.stack(suite.project, {
      config: config({ ...ENDPOINT, url: "https://hooks.example.com/other" }, { "endpoint-stack:dependent": "true" }),
      continues: stack,
    });
    const preview = expectOk(await changed.preview());
    expect(dynamicSteps(preview).map((step) => [step.name, step.op, step.replaces])).toEqual([
      ["main", "replace[retain]", ["url"]],
      ["follower", "replace[retain]", ["url"]],
    ]);
  });
});

test("deleteBeforeReplace on an endpoint another one depends on: refused, as the model does not work out which dependents the engine replaces with it; nothing is deleted or created", async () => {
  const withFollower = (endpoint: object) =>
    config(endpoint, { "endpoint-stack:dependent": "true", "endpoint-stack:deleteBeforeReplace": "true" });
  const stack = suite.workspace.stack(suite.project, { config: withFollower(ENDPOINT) });
  const first = expectOk(await stack.up());
  const moved = suite.workspace.stack(suite.project, {
    config: withFollower({ ...ENDPOINT, url: "https://hooks.example.com/v3/payments" }),
    continues: stack,
  });
  const before = suite.emulator.requestCount();
  for (const result of [await moved.preview(), await moved.up()]) {
    expect(result.ok).toBe(false);
    expect(result.errors.join("\n")).toMatch(/does not model a delete-before-replace of a resource others depend on .*::follower depends/);
    expect(stepsOf(result).filter(([op]) => op.startsWith("delete"))).toEqual([]);
  }
  expect(suite.emulator.requestCount()).toBe(before);
  expect(resourceNamed(stack, "main").id).toBe(first.outputs.id);
});
