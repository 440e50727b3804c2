/**
 * WebhookEndpoint's lifecycle under the real `pulumi` CLI, against the emulator, in one stack
 * whose program (test/fixtures/endpoint-stack) takes its inputs from config: preview, create,
 * an unchanged up, refresh, replacement on a changed url, bad inputs, the import option, and
 * destroy. Each step asserts what the service received.
 */
import * as engine from "../support/real-engine";

const API_KEY = "sk_test_real_4f9a2c";

engine.describeRealEngine("WebhookEndpoint under pulumi", () => {
  const suite = engine.useRealEngine(API_KEY);

  test("preview, up, an unchanged up, refresh, a replacement, bad inputs, import and destroy", async () => {
    const stack = await suite.stack("endpoint-stack", { config: { "endpoint-stack:endpoint": JSON.stringify(engine.ENDPOINT) } });
    const requests = () => suite.emulator.requestCount();

    // preview: a create planned, no call to the service.
    let before = requests();
    const preview = engine.expectOk(await stack.preview());
    expect(engine.opsByName(preview)).toEqual({ main: ["create"] });
    expect(requests()).toBe(before);

    // up: one endpoint, its secret a secret output.
    const up = engine.expectOk(await stack.up());
    expect(engine.opsByName(up)).toEqual({ main: ["create"] });
    const id = String(engine.output(up, "id"));
    expect(id).toMatch(/^we_/);
    const recorded = suite.emulator.endpoints().find((endpoint) => endpoint.id === id);
    expect(recorded).toMatchObject({ url: engine.ENDPOINT.url, events: engine.ENDPOINT.events, format: "basic", description: "billing" });
    expect(up.outputs?.secret).toEqual({ value: recorded!.secret, secret: true });
    expect(up.outputs?.etag).toEqual({ value: recorded!.etag, secret: false });
    expect(up.text).toMatch(/secret\s*: \[secret\]/);
    expect(up.text).not.toContain(recorded!.secret);

    // The state: the secret encrypted, no API key, a small serialized provider with no machine path.
    const state = await stack.exportState();
    const text = JSON.stringify(state);
    expect(text).not.toContain(recorded!.secret);
    expect(text).not.toContain(API_KEY);
    const [resource] = engine.resourcesNamed(state, "main");
    const provider = String((resource.inputs as Record<string, unknown>).__provider);
    expect(provider).toContain('require("pulumi-messaging/dist/provider/runtime")');
    expect(Buffer.byteLength(provider)).toBeLessThan(4096);
    expect(provider).not.toMatch(/\/(tmp|home|root|work)\//);
    expect(resource.retainOnDelete).toBe(true);

    const stateWithSecrets = await stack.exportState({ showSecrets: true });

    // An unchanged program: no change, no call.
    before = requests();
    const same = engine.expectOk(await stack.up({ expectNoChanges: true }));
    expect(engine.opsByName(same)).toEqual({ main: ["same"] });
    expect(requests()).toBe(before);

    // refresh keeps the recorded state (there is no retrieve operation), with no call.
    const refreshed = engine.expectOk(await stack.refresh());
    expect(engine.opsByName(refreshed)).toEqual({ main: ["refresh"] });
    expect(refreshed.resourceChanges).not.toHaveProperty("update");
    expect(requests()).toBe(before);
    expect(engine.resourcesNamed(await stack.exportState({ showSecrets: true }), "main")[0].outputs).toEqual(
      engine.resourcesNamed(stateWithSecrets, "main")[0].outputs,
    );

    // Reordered and repeated events are no change.
    await stack.setConfigObject("endpoint-stack:endpoint", { ...engine.ENDPOINT, events: ["payment.succeeded", "payment.succeeded"] });
    expect(engine.opsByName(engine.expectOk(await stack.preview({ expectNoChanges: true })))).toEqual({ main: ["same"] });

    // A changed url replaces: the preview says which property forced it; the old endpoint is retained.
    const moved = { ...engine.ENDPOINT, url: "https://hooks.example.com/payments-v2" };
    await stack.setConfigObject("endpoint-stack:endpoint", moved);
    const replacePreview = engine.expectOk(await stack.preview());
    expect(engine.resourceSteps(replacePreview).find((step) => step.op === "replace")?.replaces).toEqual(["url"]);
    before = requests();
    const replaced = engine.expectOk(await stack.up());
    expect(engine.opsByName(replaced).main).toEqual(["create-replacement", "replace", "delete-replaced"]);
    expect(replaced.text).toMatch(/delete(d|-replaced).*\[retain\]|\[retain\].*delete/);
    const newId = String(engine.output(replaced, "id"));
    expect(newId).not.toBe(id);
    expect(requests() - before).toBe(1);
    expect(suite.emulator.endpoints().map((endpoint) => endpoint.id)).toEqual(expect.arrayContaining([id, newId]));

    // Bad inputs fail the preview and the up, naming the property; nothing is called or recorded.
    for (const [bad, message] of [
      [{ ...moved, url: "not a url" }, /property url value \{not a url\} has a problem: expected an absolute http\(s\) URL/],
      [{ ...moved, events: [] }, /property events value \{\[\]\} has a problem: expected at least one event type/],
      [{ ...moved, format: "xml" }, /property format value \{xml\} has a problem/],
    ] as const) {
      await stack.setConfigObject("endpoint-stack:endpoint", bad);
      before = requests();
      for (const result of [await stack.preview(), await stack.up()]) {
        expect(result.ok).toBe(false);
        expect(engine.errorsOf(result)).toMatch(message);
      }
      expect(requests()).toBe(before);
    }
    await stack.setConfigObject("endpoint-stack:endpoint", moved);
    expect(String(engine.output(engine.expectOk(await stack.up({ expectNoChanges: true })), "id"))).toBe(newId);

    // The import option is refused by the resource, saying why and what to do instead.
    await stack.setConfig("endpoint-stack:importId", "we_from_dashboard");
    const imported = await stack.up();
    expect(imported.ok).toBe(false);
    expect(engine.errorsOf(imported)).toMatch(
      /WebhookEndpoint "main" cannot be imported.*no operation to retrieve it.*adopt: \{ id, secret \}/s,
    );
    await stack.removeConfig("endpoint-stack:importId");

    // destroy retains the endpoint (retainOnDelete by default) and says so; the service still has it.
    before = requests();
    const destroyed = engine.expectOk(await stack.destroy());
    expect(engine.opsByName(destroyed)).toEqual({ main: ["delete"] });
    expect(destroyed.text).toContain("[retain]");
    expect(requests()).toBe(before);
    expect(suite.emulator.endpoints().some((endpoint) => endpoint.id === newId)).toBe(true);
    expect(engine.messagesOf(destroyed)).not.toMatch(/error/i);
  });

  test("with retainOnDelete: false, destroy calls the provider, which succeeds and says the endpoint stays in the service, never printing a secret url", async () => {
    // The url holds the receiver's credentials, so the program makes it a secret.
    const withCredentials = { ...engine.ENDPOINT, url: "https://hookuser:TopSecretPw123@hooks.example.com/payments" };
    const stack = await suite.stack("endpoint-stack", {
      config: {
        "endpoint-stack:endpoint": JSON.stringify(withCredentials),
        "endpoint-stack:retainOnDelete": "false",
        "endpoint-stack:secretUrl": "true",
      },
    });
    const id = String(engine.output(engine.expectOk(await stack.up()), "id"));
    const destroyed = engine.expectOk(await stack.destroy());
    expect(engine.opsByName(destroyed)).toEqual({ main: ["delete"] });
    expect(destroyed.text).not.toContain("[retain]");
    expect(engine.messagesOf(destroyed)).toMatch(
      new RegExp(`webhook endpoint ${id}.*stays active in the service.*Developers → Webhooks`, "s"),
    );
    expect(destroyed.text).not.toContain("TopSecretPw123");
    expect(engine.resourcesNamed(await stack.exportState(), "main")).toEqual([]);
  });

  test("why the resources refuse import: under the engine it is a Read with no state, which Pulumi's dynamic-provider host fails before any provider code runs", async () => {
    const stack = await suite.stack("endpoint-stack", {
      config: { "endpoint-stack:endpoint": JSON.stringify(engine.ENDPOINT), "endpoint-stack:rawImport": "we_from_dashboard" },
    });
    const result = await stack.up();
    expect(result.ok).toBe(false);
    expect(result.steps.find((step) => step.name === "raw")).toMatchObject({ op: "import", failed: true });
    // The host looks for the serialized provider in the state the Read carries, and there is none.
    expect(engine.errorsOf(result)).toMatch(/code must be a string, not undefined/);
  });
});
