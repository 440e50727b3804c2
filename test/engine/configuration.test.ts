/**
 * The provider's configuration under the real `pulumi` CLI: stack config (`messaging:apiKey`
 * with `--secret`), the environment, which wins, a missing or wrong key, and what the state
 * holds of the key each way. One stack, its settings changed between runs.
 */
import * as engine from "../support/real-engine";

const API_KEY = "sk_test_real_77d1e0";

engine.describeRealEngine("configuration under pulumi", () => {
  const suite = engine.useRealEngine(API_KEY);

  test("a missing key, a wrong key, the environment, config over the environment, and a key set in plain text", async () => {
    const stack = await suite.stack("endpoint-stack", {
      service: false,
      config: { "messaging:baseUrl": "http://127.0.0.1:9", "endpoint-stack:endpoint": JSON.stringify(engine.ENDPOINT) },
    });
    const endpoint = (url: string) => stack.setConfigObject("endpoint-stack:endpoint", { ...engine.ENDPOINT, url });

    // No key anywhere: the preview needs none; up fails naming both ways to set it, and records nothing.
    engine.expectOk(await stack.preview());
    const missing = await stack.up();
    expect(missing.ok).toBe(false);
    expect(engine.errorsOf(missing)).toMatch(/messaging:apiKey.*MESSAGING_API_KEY|MESSAGING_API_KEY.*messaging:apiKey/s);
    expect(engine.resourcesNamed(await stack.exportState(), "main")).toEqual([]);

    // A wrong key: the service's 401, and the key is echoed nowhere.
    const wrongKey = "sk_live_wrong_key_93jd8";
    await stack.setConfig("messaging:apiKey", wrongKey, { secret: true });
    await stack.setConfig("messaging:baseUrl", suite.emulator.url);
    const wrong = await stack.up();
    expect(wrong.ok).toBe(false);
    expect(engine.errorsOf(wrong)).toMatch(/401/);
    expect(wrong.text + JSON.stringify(wrong.diagnostics)).not.toContain(wrongKey);
    expect(JSON.stringify(await stack.exportState())).not.toContain(wrongKey);
    expect(engine.resourcesNamed(await stack.exportState(), "main")).toEqual([]);

    // From the environment alone: created, and the state holds no key.
    await stack.removeConfig("messaging:apiKey");
    await stack.removeConfig("messaging:baseUrl");
    stack.setEnv({ MESSAGING_API_KEY: API_KEY, MESSAGING_BASE_URL: suite.emulator.url });
    const fromEnv = engine.expectOk(await stack.up());
    expect(String(engine.output(fromEnv, "id"))).toMatch(/^we_/);
    expect(JSON.stringify(await stack.exportState())).not.toContain(API_KEY);
    expect(engine.messagesOf(fromEnv)).not.toMatch(/apiKey/);

    // Stack config wins over the environment: a wrong key there is not used.
    stack.setEnv({ MESSAGING_API_KEY: wrongKey, MESSAGING_BASE_URL: "http://127.0.0.1:9" });
    await stack.setConfig("messaging:apiKey", API_KEY, { secret: true });
    await stack.setConfig("messaging:baseUrl", suite.emulator.url);
    await endpoint("https://hooks.example.com/config-wins");
    const configWins = engine.expectOk(await stack.up());
    const id = String(engine.output(configWins, "id"));
    expect(suite.emulator.endpoints().find((recorded) => recorded.id === id)?.url).toBe("https://hooks.example.com/config-wins");

    // The default provider's state entry holds the whole stack config: the --secret key encrypted.
    let state = await stack.exportState();
    const provider = (state.deployment.resources ?? []).find((resource) => resource.type === "pulumi:providers:pulumi-nodejs");
    expect(String(provider?.urn)).toMatch(/::pulumi:providers:pulumi-nodejs::default$/);
    expect(JSON.stringify(provider?.inputs)).toContain("messaging:apiKey");
    // The whole stack config, the program's own keys too, not only the provider's.
    expect(JSON.stringify(provider?.inputs)).toContain("endpoint-stack:endpoint");
    expect(JSON.stringify(state)).not.toContain(API_KEY);

    // A key set without --secret is stored in plain text there, and the program warns once.
    await stack.setConfig("messaging:apiKey", API_KEY);
    await endpoint("https://hooks.example.com/plain-key");
    const plain = engine.expectOk(await stack.up());
    const warnings = plain.diagnostics.filter((diagnostic) => diagnostic.severity === "warning" && /apiKey/.test(diagnostic.message));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].message).toMatch(
      /messaging:apiKey is set in plain text.*pulumi:providers:pulumi-nodejs::default.*pulumi config set --secret messaging:apiKey/s,
    );
    expect(warnings[0].message).not.toContain(API_KEY);
    state = await stack.exportState();
    expect(JSON.stringify(state)).toContain(API_KEY);
  });
});
