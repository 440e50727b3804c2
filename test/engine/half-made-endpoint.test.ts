/**
 * Endpoint creates whose answers go wrong, under the real `pulumi` CLI: answers lost on every
 * attempt (the emulator's faults), and an answer with an id but no readable secret (a proxy
 * spoils the emulator's answer). Each scenario counts the endpoints the emulator made: one per
 * resource whatever happens between runs, or a failure saying what to do.
 */
import { startRefusingProxy, type AlterAnswer, type RefusingProxy } from "../support/fake-services";
import * as engine from "../support/real-engine";

const API_KEY = "sk_test_real_half_made_3c9d";

/** The create's answer as a service whose answer lost the secret sends it (the endpoint was made). */
const withoutSecret: AlterAnswer = (answer, path) => {
  if (!path.startsWith("/v1/webhooks/endpoints")) return answer;
  const { secret: _secret, ...rest } = answer;
  return rest;
};

/** No message may advise removing an endpoint the stack holds, or announce a replacement. */
function expectNoRemovalAdvice(result: engine.OperationResult): void {
  const said = `${engine.errorsOf(result)}\n${engine.messagesOf(result)}`;
  expect(said).not.toMatch(/remove (it|we_)/i);
  expect(said).not.toMatch(/will be replaced/);
}

engine.describeRealEngine("half-made endpoints under pulumi", () => {
  const suite = engine.useRealEngine(API_KEY);
  let proxy: RefusingProxy;
  beforeAll(async () => {
    proxy = await startRefusingProxy(suite.emulator.url);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  /** A stack whose endpoint (at `url`) reaches the emulator through the proxy. */
  async function stackAt(url: string): Promise<{ stack: engine.PulumiStack; made: () => Array<{ id: string; secret: string }> }> {
    const stack = await suite.stack("endpoint-stack", {
      config: { ...suite.serviceConfig(proxy.url), "endpoint-stack:endpoint": JSON.stringify({ ...engine.ENDPOINT, url }) },
    });
    return { stack, made: () => suite.emulator.endpoints().filter((recorded) => recorded.url === url) };
  }

  /** An up whose create answer lost its secret: the endpoint is made, and recorded half-made. */
  async function halfMadeUp(stack: engine.PulumiStack): Promise<string> {
    proxy.alterAnswer = withoutSecret;
    const first = await stack.up();
    proxy.alterAnswer = undefined;
    expect(first.ok).toBe(false);
    expect(engine.errorsOf(first)).toMatch(/was created, but the service's answer could not be read/);
    expect(engine.errorsOf(first)).toMatch(/next `pulumi up` asks the service again under the same idempotency key/);
    expectNoRemovalAdvice(first);
    const [recorded] = engine.resourcesNamed(await stack.exportState({ showSecrets: true }), "main");
    expect(recorded.initErrors).toEqual([expect.stringContaining(String(recorded.id))]);
    // Recorded as a secret null: additionalSecretOutputs apply to a failed create too.
    const secret = (recorded.outputs as Record<string, unknown>).secret;
    expect(secret).toHaveProperty("plaintext");
    expect(engine.revealed(secret)).toBeNull();
    return String(recorded.id);
  }

  test("answers lost on every attempt: up fails and records nothing; the next up gets the same endpoint back", async () => {
    const { stack, made } = await stackAt("https://hooks.example.com/lost-answers");
    suite.emulator.setFaults({ failureRate: 1, seed: 3, kinds: ["drop_after_processing"] });
    try {
      expect((await stack.up()).ok).toBe(false);
    } finally {
      suite.emulator.setFaults({ failureRate: 0 });
    }
    expect(made()).toHaveLength(1);
    expect(engine.resourcesNamed(await stack.exportState(), "main")).toEqual([]);

    const second = engine.expectOk(await stack.up());
    expect(engine.opsByName(second)).toEqual({ main: ["create"] });
    expect(made()).toHaveLength(1);
    expect(engine.output(second, "id")).toBe(made()[0].id);
  });

  test("only the first answer was spoiled: after a refresh, preview shows an update and says nothing; up gets the same endpoint with its secret", async () => {
    const { stack, made } = await stackAt("https://hooks.example.com/half-made/lost-once");
    const id = await halfMadeUp(stack);
    expect(made().map((endpoint) => endpoint.id)).toEqual([id]);

    // Refresh clears the init error and prints nothing; the diff alone keeps the endpoint to be finished.
    const refreshed = engine.expectOk(await stack.refresh());
    expect(engine.messagesOf(refreshed)).toBe("");
    expect(engine.resourcesNamed(await stack.exportState(), "main")[0].initErrors ?? []).toEqual([]);
    const before = suite.emulator.requestCount();
    const preview = engine.expectOk(await stack.preview());
    expect(engine.opsByName(preview)).toEqual({ main: ["update"] });
    expect(engine.messagesOf(preview)).toBe("");
    expect(suite.emulator.requestCount()).toBe(before);

    const up = engine.expectOk(await stack.up());
    expect(engine.opsByName(up)).toEqual({ main: ["update"] });
    expectNoRemovalAdvice(up);
    // The emulator replayed its stored answer: still one endpoint, and its secret is recorded.
    expect(made().map((endpoint) => endpoint.id)).toEqual([id]);
    expect(up.outputs?.secret).toEqual({ value: made()[0].secret, secret: true });
    expect(JSON.stringify(await stack.exportState())).not.toContain(made()[0].secret);

    const after = suite.emulator.requestCount();
    expect(engine.opsByName(engine.expectOk(await stack.up({ expectNoChanges: true })))).toEqual({ main: ["same"] });
    expect(suite.emulator.requestCount()).toBe(after);
  });

  test("the service replays the unreadable answer: the next up fails with the way out, makes nothing, and adopt finishes it with no call; destroy then succeeds", async () => {
    const url = "https://hooks.example.com/half-made/replayed";
    const { stack, made } = await stackAt(url);
    const id = await halfMadeUp(stack);

    proxy.alterAnswer = withoutSecret;
    const second = await stack.up();
    proxy.alterAnswer = undefined;
    expect(second.ok).toBe(false);
    expect(engine.opsByName(second)).toEqual({ main: ["update"] });
    expect(engine.errorsOf(second)).toMatch(
      new RegExp(`same endpoint, and its signing secret still could not be read.*Developers → Webhooks.*adopt: \\{ id: "${id}"`, "s"),
    );
    expectNoRemovalAdvice(second);
    expect(made()).toHaveLength(1);
    // Recorded as the engine records a partly failed update: same id, the reasons, still half-made.
    expect(engine.resourcesNamed(await stack.exportState(), "main")[0]).toMatchObject({
      id,
      initErrors: [expect.stringContaining("adopt")],
    });

    // The way out: the secret from the dashboard (here, the emulator's record), declared with adopt.
    await stack.setConfigObject("endpoint-stack:endpoint", { ...engine.ENDPOINT, url, adopt: { id, secret: made()[0].secret } });
    const before = suite.emulator.requestCount();
    const adopted = engine.expectOk(await stack.up());
    expect(engine.opsByName(adopted)).toEqual({ main: ["update"] });
    expect(suite.emulator.requestCount()).toBe(before);
    expect(engine.output(adopted, "secret")).toBe(made()[0].secret);
    expect(engine.opsByName(engine.expectOk(await stack.up({ expectNoChanges: true })))).toEqual({ main: ["same"] });
    expect(made()).toHaveLength(1);
    expect(engine.opsByName(engine.expectOk(await stack.destroy()))).toEqual({ main: ["delete"] });
  });
});
