/**
 * MessageBatch under the real `pulumi` CLI, against the emulator: sent once on create, in calls
 * of at most 1,000, each message as its canonical JSON; never again for an unchanged program; again
 * on a new trigger. A send that
 * stops part-way is finished by the next `up` (also after a refresh) with no message twice.
 * Secret messages leave nothing of their content in plain text in the state.
 */
import { recipientsOf } from "../support/emulator";
import { startFirstChunkOnlyService } from "../support/fake-services";
import * as engine from "../support/real-engine";

const API_KEY = "sk_test_real_batches_71c0";

engine.describeRealEngine("MessageBatch under pulumi", () => {
  const suite = engine.useRealEngine(API_KEY);

  test("2,001 messages go out once, in calls of at most 1,000; an unchanged program sends nothing; a new trigger sends again; an invalid message sends nothing", async () => {
    const stack = await suite.stack("batch-stack", { config: { "batch-stack:count": "2001", "batch-stack:trigger": "1" } });
    expect(engine.opsByName(engine.expectOk(await stack.preview()))).toEqual({ reminders: ["create"] });
    expect(suite.emulator.batches()).toHaveLength(0);

    const up = engine.expectOk(await stack.up());
    const batches = suite.emulator.batches();
    const calls = batches.length;
    expect(Math.max(...batches.map((batch) => batch.messages.length))).toBeLessThanOrEqual(1000);
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(engine.output(up, "batchIds")).toEqual(batches.map((batch) => batch.id));
    expect(engine.output(up, "messageCount")).toBe(2001);
    expect(new Set(recipientsOf(batches)).size).toBe(2001);

    expect(engine.opsByName(engine.expectOk(await stack.up({ expectNoChanges: true })))).toEqual({ reminders: ["same"] });
    expect(engine.opsByName(engine.expectOk(await stack.refresh()))).toEqual({ reminders: ["refresh"] });
    expect(engine.opsByName(engine.expectOk(await stack.up({ expectNoChanges: true })))).toEqual({ reminders: ["same"] });
    expect(suite.emulator.batches()).toHaveLength(calls);

    await stack.setConfig("batch-stack:trigger", "2");
    const again = engine.expectOk(await stack.up());
    expect(engine.resourceSteps(again).find((step) => step.op === "replace")?.replaces).toEqual(["triggers"]);
    expect(suite.emulator.batches()).toHaveLength(2 * calls);

    await stack.setConfig("batch-stack:count", "0");
    const invalid = await stack.up();
    expect(invalid.ok).toBe(false);
    expect(engine.errorsOf(invalid)).toMatch(
      /MessageBatch resource 'reminders': property messages value \{(\[\]|<nil>)\} has a problem: expected at least one message/,
    );
    expect(suite.emulator.batches()).toHaveLength(2 * calls);
  });

  test("a send that stops part-way is recorded part-sent; after a refresh, the next up finishes it without sending anything twice", async () => {
    const service = await startFirstChunkOnlyService();
    try {
      const stack = await suite.stack("batch-stack", {
        config: { ...suite.serviceConfig(service.url), "batch-stack:count": "2001", "batch-stack:trigger": "part" },
      });
      const first = await stack.up();
      expect(first.ok).toBe(false);
      expect(engine.errorsOf(first)).toMatch(
        /message batch \S+: \d+ of 2001 messages were confirmed before sending stopped.*Run `pulumi up` again to send the rest/s,
      );
      const [recorded] = engine.resourcesNamed(await stack.exportState(), "reminders");
      expect(recorded).toMatchObject({
        initErrors: [expect.stringMatching(/\d+ of 2001/)],
        outputs: expect.objectContaining({ batchIds: ["msba_fake_0"], sentAt: null }),
      });
      const outputs = recorded.outputs as Record<string, unknown>;
      expect(outputs.__provider).toEqual((recorded.inputs as Record<string, unknown>).__provider);

      // A refresh reads the batch (possible only because its state carries the provider) and clears the init error.
      expect(engine.opsByName(engine.expectOk(await stack.refresh()))).toEqual({ reminders: ["refresh"] });
      expect(engine.resourcesNamed(await stack.exportState(), "reminders")[0].initErrors ?? []).toEqual([]);

      service.acceptAll();
      const second = engine.expectOk(await stack.up());
      expect(engine.opsByName(second)).toEqual({ reminders: ["update"] });
      const ids = engine.output(second, "batchIds") as string[];
      expect(ids[0]).toBe("msba_fake_0");
      expect(ids).toEqual(ids.map((_id, i) => `msba_fake_${i}`));
      const recipients = service.recipients();
      expect(recipients).toHaveLength(2001);
      expect(new Set(recipients).size).toBe(2001);
    } finally {
      await service.close();
    }
  });

  test("a first call processed by the service but never answered is not sent again by the next up", async () => {
    const stack = await suite.stack("batch-stack", { config: { "batch-stack:count": "10", "batch-stack:trigger": "lost-answer" } });
    const before = suite.emulator.batches().length;
    suite.emulator.setFaults({ failureRate: 1, seed: 7, kinds: ["drop_after_processing"] });
    try {
      expect((await stack.up()).ok).toBe(false);
    } finally {
      suite.emulator.setFaults({ failureRate: 0 });
    }
    expect(suite.emulator.batches().length - before).toBe(1);
    expect(engine.resourcesNamed(await stack.exportState(), "reminders")[0]).toMatchObject({
      initErrors: [expect.any(String)],
      outputs: expect.objectContaining({ sentAt: null }),
    });

    const second = engine.expectOk(await stack.up());
    expect(engine.opsByName(second)).toEqual({ reminders: ["update"] });
    expect(suite.emulator.batches().length - before).toBe(1);
    expect(engine.output(second, "batchIds")).toEqual([suite.emulator.batches().at(-1)!.id]);
    // The user is told why nothing went out: the service answered from its record.
    expect(engine.messagesOf(second)).toMatch(
      /1 of 1 calls were answered from the service's record of an earlier run under this stack's identity/,
    );
  });

  test("an up killed (SIGKILL, every process) right after the service took its first chunk: cancel and up again send the rest, nothing twice", async () => {
    const stack = await suite.stack("batch-stack", { config: { "batch-stack:count": "3001", "batch-stack:trigger": "killed" } });
    const from = suite.emulator.batches().length;
    expect((await engine.upKilledAfterFirstCall(stack, suite.emulator, from)).ok).toBe(false);
    expect(suite.emulator.batches().length - from).toBeGreaterThanOrEqual(1);

    await stack.cli(["cancel", "--yes"]);
    engine.expectOk(await stack.up());
    const recipients = recipientsOf(suite.emulator.batches().slice(from));
    expect(recipients).toHaveLength(3001);
    expect(new Set(recipients).size).toBe(3001);
  });

  test("secret messages: nothing of their text, numbers or digest is plain in the state; an unchanged program sends nothing", async () => {
    const stack = await suite.stack("batch-stack", {
      config: { "batch-stack:count": "3", "batch-stack:trigger": "secret", "batch-stack:secret": "true" },
    });
    engine.expectOk(await stack.up());
    const sent = suite.emulator.batches().at(-1)!;
    expect(sent.messages).toHaveLength(3);
    const [revealed] = engine.resourcesNamed(await stack.exportState({ showSecrets: true }), "reminders");
    const digest = String(engine.revealed((revealed.outputs as Record<string, unknown>).messagesDigest));
    expect(digest.length).toBeGreaterThan(16);
    const state = JSON.stringify(await stack.exportState());
    for (const message of sent.messages) {
      expect(state).not.toContain((message as { body?: string }).body);
      expect(state).not.toContain(message.tos[0]);
    }
    expect(state).not.toContain(digest);
    const before = suite.emulator.batches().length;
    expect(engine.opsByName(engine.expectOk(await stack.up({ expectNoChanges: true })))).toEqual({ reminders: ["same"] });
    expect(suite.emulator.batches()).toHaveLength(before);
  });

  test("a template model with a __proto__ key (read with JSON.parse) is refused before any call, naming the field", async () => {
    const stack = await suite.stack("batch-stack", {
      config: {
        "batch-stack:count": "1",
        "batch-stack:template": "true",
        "batch-stack:model": JSON.stringify({ name: "Amina" }).replace("{", '{"__proto__":{"code":"123456"},'),
        "batch-stack:trigger": "proto",
      },
    });
    const before = suite.emulator.requestCount();
    const refused = await stack.up();
    expect(refused.ok).toBe(false);
    expect(engine.errorsOf(refused)).toMatch(
      /Invalid inputs of MessageBatch "reminders":\s+messages\[0\]\.template\.model\["__proto__"\]: a `__proto__` key is refused/,
    );
    expect(suite.emulator.requestCount()).toBe(before);
  });
});
