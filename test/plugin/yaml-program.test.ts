/**
 * The provider plugin as users of other languages get it, under the real `pulumi` CLI:
 * installed from the packed archive with `pulumi plugin install --file`, and `examples/yaml`
 * (Pulumi YAML reads the plugin's schema itself) deployed against the emulator with preview,
 * up, an unchanged up, a changed provider setting, a refused `pulumi import` and destroy; and a
 * program kept in Main.yaml, as docs/message-batch.md advises for many inline messages.
 */
import { describeRealEngine, expectOk, messagesOf, opsByName, output, useRealEngine } from "../support/real-engine";

const API_KEY = "sk_test_real_yaml_2b8e";

describeRealEngine("examples/yaml with the installed plugin", () => {
  const suite = useRealEngine(API_KEY);

  test("preview, up, an unchanged up with no service call, a changed setting, an import refused, and destroy; the secret stays secret and the batch goes out once", async () => {
    const stack = await suite.stack("examples/yaml", { plugin: true, config: { receiverUrl: "https://hooks.example.com/yaml" } });
    const plugin = await suite.pluginArchive();
    const installed = await stack.cli(["plugin", "ls", "--json"]);
    expect(JSON.parse(installed.stdout)).toContainEqual(
      expect.objectContaining({ name: "messaging", kind: "resource", version: plugin.version }),
    );

    const preview = expectOk(await stack.preview());
    expect(opsByName(preview)).toEqual({ payments: ["create"], welcome: ["create"] });
    expect(suite.emulator.requestCount()).toBe(0);

    const up = expectOk(await stack.up());
    expect(opsByName(up)).toEqual({ payments: ["create"], welcome: ["create"] });
    const id = String(output(up, "endpointId"));
    const endpoint = suite.emulator.endpoints().find((recorded) => recorded.id === id);
    expect(endpoint).toMatchObject({
      url: "https://hooks.example.com/yaml",
      events: ["payment.succeeded", "identity.verification.created"],
    });
    expect(up.outputs?.signingSecret).toEqual({ value: endpoint!.secret, secret: true });
    expect(JSON.stringify(await stack.exportState())).not.toContain(endpoint!.secret);
    expect(JSON.stringify(await stack.exportState())).not.toContain(API_KEY);
    expect(suite.emulator.batches().flatMap((batch) => batch.messages.map((message) => message.tos[0]))).toEqual([
      "+254712345678",
      "+254712345679",
    ]);
    expect(output(up, "messageCount")).toBe(2);

    const before = suite.emulator.requestCount();
    expect(opsByName(expectOk(await stack.up({ expectNoChanges: true })))).toEqual({ payments: ["same"], welcome: ["same"] });
    expect(suite.emulator.requestCount()).toBe(before);

    // A changed setting is a change of the provider, not of its resources (the plugin's DiffConfig): nothing is made again.
    await stack.setConfig("messaging:baseUrl", suite.emulator.url.replace("127.0.0.1", "localhost"));
    expect(opsByName(expectOk(await stack.up()))).toEqual({ payments: ["same"], welcome: ["same"] });
    expect(suite.emulator.requestCount()).toBe(before);

    // A key set without --secret is still encrypted in the state: the plugin's CheckConfig marks it secret.
    await stack.setConfig("messaging:apiKey", API_KEY);
    expectOk(await stack.up());
    expect(JSON.stringify(await stack.exportState())).not.toContain(API_KEY);

    // `pulumi import` reaches the plugin's Read with an id and no state: refused, naming the way (`adopt`).
    const imported = await stack.cli(
      ["import", "messaging:index:WebhookEndpoint", "elsewhere", "we_elsewhere", "--yes", "--generate-code=false"],
      {
        allowFailure: true,
      },
    );
    expect(imported.code).not.toBe(0);
    expect(`${imported.stdout}${imported.stderr}`).toMatch(/Cannot import webhook endpoint we_elsewhere.*adopt: \{ id, secret \}/s);
    expect(suite.emulator.requestCount()).toBe(before);

    const destroyed = expectOk(await stack.destroy());
    expect(opsByName(destroyed)).toEqual({ payments: ["delete"], welcome: ["delete"] });
    expect(suite.emulator.endpoints().some((recorded) => recorded.id === id)).toBe(true);
    // The plugin's word on it reaches the user (through the engine's Log: the engine hides a plugin's stderr).
    expect(messagesOf(destroyed)).toMatch(new RegExp(`webhook endpoint ${id} was removed from the stack but still exists`));
    expect(messagesOf(destroyed)).toMatch(
      /message batch .* was removed from the stack; its messages were already sent and cannot be recalled/,
    );
    expect(suite.emulator.batches()).toHaveLength(1);
  });

  test("a program in Main.yaml beside a small Pulumi.yaml (the layout docs/message-batch.md advises for many inline messages): each message once, then an unchanged up with no call", async () => {
    const stack = await suite.stack("yaml-main", { plugin: true });
    const batchesBefore = suite.emulator.batches().length;
    const up = expectOk(await stack.up());
    expect(opsByName(up)).toEqual({ reminders: ["create"] });
    expect(output(up, "messageCount")).toBe(25);
    const sent = suite.emulator
      .batches()
      .slice(batchesBefore)
      .flatMap((batch) => batch.messages.map((message) => message.tos[0]));
    expect(sent).toEqual(Array.from({ length: 25 }, (_, i) => `+2547200000${String(i).padStart(2, "0")}`));

    const before = suite.emulator.requestCount();
    expect(opsByName(expectOk(await stack.up({ expectNoChanges: true })))).toEqual({ reminders: ["same"] });
    expect(suite.emulator.requestCount()).toBe(before);
  });
});
