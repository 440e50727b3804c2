/**
 * MessageBatch state written by every release of this package, read through the real SDK and
 * dynamic-provider host against the emulator (idempotency replay on): an unchanged program
 * sends nothing, a part-sent batch is finished without sending a message twice, an unknown
 * shape is an error. Old shapes are made by editing the state a current run wrote into the
 * shape the earlier release wrote (its serialized provider calls the same runtime module).
 * Counts are of what the emulator accepted, recipient by recipient.
 */
import { wrapSecret } from "../../engine/secrets";
import type { ResourceState } from "../../engine/state";
import { legacyLocaleDigest, messagesDigest } from "../../provider/messages-digest";
import { useEngineSuite } from "./engine-suite";
import { startRefusingProxy } from "./fake-services";
import { expectOk, opsByName, plain, resourceNamed, stepsOf } from "./harness";
import { editResource, without } from "./state-fixtures";

const API_KEY = "sk_test_batch_state_8e21";

const suite = useEngineSuite(API_KEY, "batch-stack");
const config = (count: number, extra: Record<string, string> = {}) => suite.serviceConfig({ "batch-stack:count": String(count), ...extra });

/** Recipients of the batches the emulator accepted since `from` (an index into its batches). */
const recipientsSince = (from: number): string[] =>
  suite.emulator
    .batches()
    .slice(from)
    .flatMap((batch) => batch.messages.map((message) => message.tos[0]));

/** The messages the program registered, as the state's inputs hold them. */
const messagesOf = (resource: ResourceState): unknown[] => plain(resource.inputs.messages) as unknown[];

/** The first release's outputs: the messages themselves, no digest. */
const firstReleaseShape = (resource: ResourceState): ResourceState => ({
  ...resource,
  outputs: { ...without(resource.outputs, "messagesDigest"), messages: messagesOf(resource) },
});

test("the first release's shape (messages among the outputs, no digest): an unchanged program sends nothing; refresh and destroy work", async () => {
  const stack = suite.workspace.stack(suite.project, { config: config(1001, { "batch-stack:trigger": "first-release" }) });
  const from = suite.emulator.batches().length;
  expectOk(await stack.up());
  expect(recipientsSince(from)).toHaveLength(1001);
  editResource(stack, "reminders", firstReleaseShape);

  expect(opsByName(expectOk(await stack.preview()))).toEqual({ reminders: "same" });
  expect(opsByName(expectOk(await stack.up()))).toEqual({ reminders: "same" });
  expect(opsByName(expectOk(await stack.refresh()))).toEqual({ reminders: "refresh" });
  expect(opsByName(expectOk(await stack.up()))).toEqual({ reminders: "same" });
  const destroyed = expectOk(await stack.destroy());
  expect(opsByName(destroyed)).toEqual({ reminders: "delete" });
  expect(destroyed.providerStderr.join("\n")).toMatch(/already sent and cannot be recalled/);
  expect(recipientsSince(from)).toHaveLength(1001);
});

test.each([
  ["the first release (messages, no digest)", (resource: ResourceState) => firstReleaseShape(resource)],
  [
    "the release that first recorded a digest (locale-ordered)",
    (resource: ResourceState) => ({
      ...resource,
      outputs: { ...resource.outputs, messagesDigest: legacyLocaleDigest(messagesOf(resource)) },
    }),
  ],
])(
  "a part-sent batch as %s wrote it (no __provider, no reasons): the next up finishes it by update, no message twice",
  async (shape, toShape) => {
    const proxy = await startRefusingProxy(suite.emulator.url);
    try {
      const stack = suite.workspace.stack(suite.project, {
        config: config(1001, {
          "batch-stack:trigger": `part-sent ${shape}`,
          "batch-stack:template": "true",
          "messaging:baseUrl": proxy.url,
        }),
      });
      const from = suite.emulator.batches().length;
      // The second call (messages 1000 on) is refused: the first chunk is accepted under `<prefix>-0`.
      proxy.refuse = "+254710001000";
      expect((await stack.up()).ok).toBe(false);
      proxy.refuse = undefined;
      expect(recipientsSince(from)).toHaveLength(1000);
      // As the earlier release recorded it: its init failure carried neither __provider nor reasons.
      editResource(stack, "reminders", (resource) => {
        const old = toShape(resource);
        return { ...old, outputs: without(old.outputs, "__provider"), initErrors: [] };
      });
      const id = resourceNamed(stack, "reminders").id;

      // A refresh cannot read it: the host needs __provider in the recorded outputs before any provider code runs.
      const refreshed = await stack.refresh();
      expect(refreshed.ok).toBe(false);
      expect(resourceNamed(stack, "reminders").outputs).not.toHaveProperty("__provider");

      const preview = expectOk(await stack.preview());
      expect(stepsOf(preview)).toEqual([["update", id]]);
      expect(preview.providerStderr).toEqual([]);
      expect(recipientsSince(from)).toHaveLength(1000);

      // Update takes the provider from the new inputs (host `update`), so it runs; a replacement
      // would have failed deleting the old copy, whose outputs have no provider.
      const up = expectOk(await stack.up());
      expect(stepsOf(up)).toEqual([["update", id]]);
      expect(up.providerStderr.join("\n")).toMatch(
        new RegExp(`${id} was only part-sent: sending the rest\\. Chunks the service confirmed are not sent again`),
      );
      const recipients = recipientsSince(from);
      expect(recipients).toHaveLength(1001);
      expect(new Set(recipients).size).toBe(1001);

      // Now in the current shape, with its provider: refresh, an unchanged up and destroy work, sending nothing.
      const recorded = resourceNamed(stack, "reminders");
      expect(plain(recorded.outputs.messagesDigest)).toBe(messagesDigest(messagesOf(recorded)));
      expect(recorded.outputs.__provider).toBe(recorded.inputs.__provider);
      expectOk(await stack.refresh());
      expect(opsByName(expectOk(await stack.up()))).toEqual({ reminders: "same" });
      expectOk(await stack.destroy());
      expect(recipientsSince(from)).toHaveLength(1001);
    } finally {
      await proxy.close();
    }
  },
);

test("a legacy locale-ordered digest of unchanged messages (template models with mixed-case keys): no replacement, nothing sent", async () => {
  const stack = suite.workspace.stack(suite.project, {
    config: config(3, { "batch-stack:trigger": "legacy-digest", "batch-stack:template": "true" }),
  });
  const from = suite.emulator.batches().length;
  expectOk(await stack.up());
  const messages = messagesOf(resourceNamed(stack, "reminders"));
  // The two orders differ for these messages, so this test could fail.
  expect(legacyLocaleDigest(messages)).not.toBe(messagesDigest(messages));
  editResource(stack, "reminders", (resource) => ({
    ...resource,
    outputs: { ...resource.outputs, messagesDigest: wrapSecret(legacyLocaleDigest(messages)) },
  }));
  expect(opsByName(expectOk(await stack.up()))).toEqual({ reminders: "same" });
  expect(recipientsSince(from)).toHaveLength(3);
});

test("a state shape no release wrote is an error from diff: nothing is sent, nothing replaced, the state kept", async () => {
  const stack = suite.workspace.stack(suite.project, { config: config(2, { "batch-stack:trigger": "unknown-shape" }) });
  const from = suite.emulator.batches().length;
  expectOk(await stack.up());
  editResource(stack, "reminders", (resource) => ({ ...resource, outputs: without(resource.outputs, "messagesDigest") }));
  const before = resourceNamed(stack, "reminders");
  for (const result of [await stack.preview(), await stack.up()]) {
    expect(result.ok).toBe(false);
    expect(result.errors.join("\n")).toMatch(
      /recorded state has a shape this version of pulumi-messaging does not know.*Nothing was sent/s,
    );
  }
  expect(resourceNamed(stack, "reminders")).toEqual(before);
  expect(recipientsSince(from)).toHaveLength(2);
});

test("a secret-wrapped batch: nothing derived from its content is plain in the state; an unchanged program still sends nothing", async () => {
  const stack = suite.workspace.stack(suite.project, {
    config: config(3, { "batch-stack:trigger": "secret", "batch-stack:secret": "true" }),
  });
  const from = suite.emulator.batches().length;
  expectOk(await stack.up());
  const recorded = resourceNamed(stack, "reminders");
  const messages = messagesOf(recorded) as Array<{ tos: string[]; body: string }>;
  const digest = plain(recorded.outputs.messagesDigest) as string;
  expect(digest).toBe(messagesDigest(messages));
  const text = stack.stateText();
  for (const value of [digest, legacyLocaleDigest(messages), ...messages.flatMap((message) => [...message.tos, message.body])]) {
    expect(text).not.toContain(value);
  }
  // The host received the digest unwrapped (the engine unwraps secrets for it), so diff matched.
  expect(opsByName(expectOk(await stack.up()))).toEqual({ reminders: "same" });
  expect(recipientsSince(from)).toHaveLength(3);
});

test("the digest is a secret output of every batch; one an earlier release recorded in plain text is encrypted by the next up", async () => {
  const stack = suite.workspace.stack(suite.project, { config: config(2, { "batch-stack:trigger": "plain-messages" }) });
  const from = suite.emulator.batches().length;
  expectOk(await stack.up());
  const digest = plain(resourceNamed(stack, "reminders").outputs.messagesDigest) as string;
  expect(digest).toMatch(/^[0-9a-f]{64}$/);
  expect(stack.stateText()).not.toContain(digest);

  editResource(stack, "reminders", (resource) => ({ ...resource, outputs: { ...resource.outputs, messagesDigest: digest } }));
  expect(stack.stateText()).toContain(digest);
  expect(opsByName(expectOk(await stack.up()))).toEqual({ reminders: "same" });
  expect(stack.stateText()).not.toContain(digest);
  expect(recipientsSince(from)).toHaveLength(2);
});
