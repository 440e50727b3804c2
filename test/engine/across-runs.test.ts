/**
 * What the real `pulumi` CLI does between runs that the product's identities depend on: URNs
 * under components (the idempotency scope), a changed `messaging:baseUrl` (the default provider
 * is updated, never replaced with its resources), and an input made secret with the same value.
 */
import { startRefusingProxy } from "../support/fake-services";
import * as engine from "../support/real-engine";

const API_KEY = "sk_test_real_runs_a71c";

engine.describeRealEngine("across runs under pulumi", () => {
  const suite = engine.useRealEngine(API_KEY);

  test("endpoints named alike under components of different types are two endpoints; under one type the engine refuses the program", async () => {
    const url = "https://hooks.example.com/components";
    const stack = await suite.stack("component-stack", { config: { "component-stack:url": url } });
    const up = engine.expectOk(await stack.up());
    expect(engine.output(up, "paymentsUrn")).toBe(
      `urn:pulumi:${stack.stackName}::component-stack::acme:index:PaymentsTeam$pulumi-nodejs:dynamic/messaging:WebhookEndpoint::hook`,
    );
    const ids = [engine.output(up, "paymentsHook"), engine.output(up, "identityHook")];
    expect(ids[0]).not.toBe(ids[1]);
    expect(
      suite.emulator
        .endpoints()
        .filter((endpoint) => endpoint.url === url)
        .map((endpoint) => endpoint.id)
        .sort(),
    ).toEqual([...ids].sort());

    await stack.setConfig("component-stack:sameType", "true");
    const before = suite.emulator.requestCount();
    const refused = await stack.up();
    expect(refused.ok).toBe(false);
    expect(engine.errorsOf(refused)).toMatch(
      /Duplicate resource URN 'urn:pulumi:.*::acme:index:PaymentsTeam\$pulumi-nodejs:dynamic\/messaging:WebhookEndpoint::hook'; try giving it a unique name/,
    );
    expect(suite.emulator.requestCount()).toBe(before);
  });

  test("a changed messaging:baseUrl updates the default provider and replaces the endpoint, said (another address is another service; through a proxy to the same one, its key gets the same endpoint back); the same url made secret is no change and is encrypted in the state", async () => {
    const proxy = await startRefusingProxy(suite.emulator.url);
    try {
      const stack = await suite.stack("endpoint-stack", { config: { "endpoint-stack:endpoint": JSON.stringify(engine.ENDPOINT) } });
      const id = String(engine.output(engine.expectOk(await stack.up()), "id"));
      const endpoints = suite.emulator.endpoints().length;

      await stack.setConfig("messaging:baseUrl", proxy.url);
      const moved = engine.expectOk(await stack.up());
      expect(moved.steps.find((step) => step.type === "pulumi:providers:pulumi-nodejs")?.op).toBe("update");
      expect(engine.opsByName(moved).main).toContain("create-replacement");
      expect(engine.messagesOf(moved)).toMatch(
        /lives at http:\/\/127\.0\.0\.1:\d+; the base URL .* now reaches http:\/\/127\.0\.0\.1:\d+, another service/,
      );
      expect(engine.output(moved, "id")).toBe(id);
      expect(suite.emulator.endpoints()).toHaveLength(endpoints);
      expect(proxy.forwarded()).toBe(1);
      const before = suite.emulator.requestCount();

      // The same url, now a secret: no change, no call; the input is recorded secret.
      await stack.setConfig("endpoint-stack:secretUrl", "true");
      expect(engine.opsByName(engine.expectOk(await stack.up()))).toEqual({ main: ["same"] });
      expect(suite.emulator.requestCount()).toBe(before);
      const [main] = engine.resourcesNamed(await stack.exportState(), "main");
      expect(JSON.stringify((main.inputs as Record<string, unknown>).url)).toContain("ciphertext");
      // The engine marks the recorded output secret too, though the step is `same`.
      expect(JSON.stringify((main.outputs as Record<string, unknown>).url)).toContain("ciphertext");

      await stack.setConfigObject("endpoint-stack:endpoint", { ...engine.ENDPOINT, url: "https://hooks.example.com/v2/payments" });
      const changed = engine.expectOk(await stack.up());
      expect(engine.output(changed, "id")).not.toBe(id);
      expect(proxy.forwarded()).toBe(2);
    } finally {
      await proxy.close();
    }
  });
});
