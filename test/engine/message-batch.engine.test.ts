/** MessageBatch through the real engine path: sends once on create, again only on replace. */
import { startFirstChunkOnlyService } from "./fake-services";
import { useEngineSuite } from "./engine-suite";
import { expectOk, opsByName, resourceNamed } from "./harness";
import { forgetResource } from "./state-fixtures";

const API_KEY = "sk_test_batches_71c0";

const suite = useEngineSuite(API_KEY, "batch-stack");
const config = (count: number, trigger = "1") =>
  suite.serviceConfig({ "batch-stack:count": String(count), "batch-stack:trigger": trigger });

test("2,001 messages go out once, in three calls (1,000, 1,000, 1); an unchanged program sends nothing; a new trigger sends again", async () => {
  const stack = suite.workspace.stack(suite.project, { config: config(2001) });
  const preview = expectOk(await stack.preview());
  expect(opsByName(preview)).toEqual({ reminders: "create" });
  expect(suite.emulator.batches()).toHaveLength(0);

  const up = expectOk(await stack.up());
  const batches = suite.emulator.batches();
  expect(batches.map((batch) => batch.messages.length)).toEqual([1000, 1000, 1]);
  expect(up.outputs.batchIds).toEqual(batches.map((batch) => batch.id));
  expect(up.outputs.messageCount).toBe(2001);
  const recipients = batches.flatMap((batch) => batch.messages.map((message) => message.tos[0]));
  expect(new Set(recipients).size).toBe(2001);

  expect(opsByName(expectOk(await stack.up()))).toEqual({ reminders: "same" });
  expect(suite.emulator.batches()).toHaveLength(3);

  const retriggered = suite.workspace.stack(suite.project, { config: config(2001, "2"), continues: stack });
  const again = expectOk(await retriggered.up());
  expect(again.steps.find((step) => step.name === "reminders")).toMatchObject({ op: "replace", replaces: ["triggers"] });
  expect(suite.emulator.batches()).toHaveLength(6);
});

test("an invalid message fails check naming it, and nothing is sent", async () => {
  const before = suite.emulator.batches().length;
  const stack = suite.workspace.stack(suite.project, { config: config(0) });
  const result = await stack.up();
  expect(result.ok).toBe(false);
  expect(result.errors.join("\n")).toMatch(
    /MessageBatch resource 'reminders': property messages value \{\[\]\} has a problem: expected at least one message/,
  );
  expect(suite.emulator.batches()).toHaveLength(before);
});

test("a send that stops part-way is kept in state; after a refresh, the next up still finishes it without sending anything twice", async () => {
  const service = await startFirstChunkOnlyService();
  try {
    const stack = suite.workspace.stack(suite.project, { config: { ...config(2001), "messaging:baseUrl": service.url } });
    const first = await stack.up();
    expect(first.ok).toBe(false);
    // What the CLI prints: the reasons of the init failure.
    expect(first.errors).toContainEqual(
      expect.stringMatching(
        /^1 error occurred:\n\t\* message batch \S+: 1000 of 2001 messages were confirmed before sending stopped.*run `pulumi up` again to send the rest/s,
      ),
    );
    const recorded = resourceNamed(stack, "reminders");
    expect(recorded).toMatchObject({
      initErrors: [expect.stringContaining("1000 of 2001")],
      outputs: { batchIds: ["msba_fake_0"], sentAt: null },
    });
    expect(recorded.outputs.__provider).toEqual(recorded.inputs.__provider);

    // A refresh reads the batch (possible only because its state carries the provider) and clears the init error.
    expect(opsByName(expectOk(await stack.refresh()))).toEqual({ reminders: "refresh" });
    expect(resourceNamed(stack, "reminders").initErrors).toEqual([]);

    service.acceptAll();
    const second = expectOk(await stack.up());
    expect(opsByName(second)).toEqual({ reminders: "update" });
    expect(second.outputs.batchIds).toEqual(["msba_fake_0", "msba_fake_1", "msba_fake_2"]);
    const recipients = service.recipients();
    expect(recipients).toHaveLength(2001);
    expect(new Set(recipients).size).toBe(2001);
  } finally {
    await service.close();
  }
});

test("a first call processed by the service but never answered is not sent again by the next up", async () => {
  const stack = suite.workspace.stack(suite.project, { config: config(10, "lost-answer") });
  const before = suite.emulator.batches().length;
  // Every attempt is processed, then its connection dropped before the answer.
  suite.emulator.setFaults({ failureRate: 1, seed: 7, kinds: ["drop_after_processing"] });
  try {
    const first = await stack.up();
    expect(first.ok).toBe(false);
  } finally {
    suite.emulator.setFaults({ failureRate: 0 });
  }
  expect(suite.emulator.batches().length - before).toBe(1);
  expect(resourceNamed(stack, "reminders")).toMatchObject({ initErrors: [expect.any(String)], outputs: { sentAt: null } });

  const second = expectOk(await stack.up());
  expect(opsByName(second)).toEqual({ reminders: "update" });
  expect(suite.emulator.batches().length - before).toBe(1);
  expect(second.outputs.batchIds).toEqual([suite.emulator.batches().at(-1)!.id]);
});

test("a create whose outcome was never recorded (the run killed mid-send) is redone under the same keys: nothing is sent twice", async () => {
  const stack = suite.workspace.stack(suite.project, { config: config(1001, "killed") });
  const before = suite.emulator.batches().length;
  const first = expectOk(await stack.up());
  expect(suite.emulator.batches().length - before).toBe(2);
  forgetResource(stack, "reminders");

  const again = expectOk(await stack.up());
  expect(opsByName(again)).toEqual({ reminders: "create" });
  // The same key prefix: the service answered both calls from its record.
  expect(again.outputs.batchId).toBe(first.outputs.batchId);
  expect(again.outputs.batchIds).toEqual(first.outputs.batchIds);
  expect(suite.emulator.batches().length - before).toBe(2);
});
