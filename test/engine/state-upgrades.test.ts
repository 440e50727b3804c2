/**
 * State written by earlier releases of this package, read by the real `pulumi` CLI: each old
 * shape is made from the state a current run wrote (`pulumi stack export --show-secrets`, edited
 * into the shape the earlier release recorded, `pulumi stack import`), as an upgrade presents it
 * to the engine. An unchanged program sends nothing; a part-sent batch is finished with no
 * message twice; a shape no release wrote is an error that sends nothing. Counts are of what the
 * emulator accepted, recipient by recipient.
 */
import { MessagingClient } from "../../client";
import { legacyLocaleDigest, messagesDigest } from "../../provider/messages-digest";
import { recipientsOf } from "../support/emulator";
import { startRefusingProxy } from "../support/fake-services";
import {
  describeRealEngine,
  editResource,
  ENDPOINT,
  errorsOf,
  expectOk,
  messagesOf,
  opsByName,
  resourcesNamed,
  revealed,
  revealedSecret,
  useRealEngine,
  without,
  type PulumiStack,
} from "../support/real-engine";

const API_KEY = "sk_test_real_state_8e21";

describeRealEngine("state from earlier releases under pulumi", () => {
  const suite = useRealEngine(API_KEY);

  /** Recipients of the batches the emulator accepted since `from` (an index into its batches). */
  const recipientsSince = (from: number): string[] => recipientsOf(suite.emulator.batches().slice(from));

  /** The messages the program registered, as the state's inputs hold them (the class sends them as one JSON text). */
  const registeredMessages = (resource: Record<string, unknown>): unknown[] => {
    const inputs = resource.inputs as Record<string, unknown>;
    return inputs.messagesJson === undefined ? (revealed(inputs.messages) as unknown[]) : JSON.parse(String(revealed(inputs.messagesJson)));
  };

  /** The first release's inputs and outputs: the messages themselves among both, no digest. */
  const firstReleaseShape = (resource: Record<string, unknown>) => ({
    ...resource,
    inputs: { ...without(resource.inputs, "messagesJson", "messagesFileRead"), messages: registeredMessages(resource) },
    outputs: { ...without(resource.outputs, "messagesDigest"), messages: registeredMessages(resource) },
  });

  async function batchStack(trigger: string, count: number, extra: Record<string, string> = {}): Promise<PulumiStack> {
    return suite.stack("batch-stack", { config: { "batch-stack:count": String(count), "batch-stack:trigger": trigger, ...extra } });
  }

  test("the first release's shape (messages among the outputs, no digest): nothing sent by up, refresh or destroy", async () => {
    const stack = await batchStack("first-release", 1001);
    const from = suite.emulator.batches().length;
    expectOk(await stack.up());
    expect(recipientsSince(from)).toHaveLength(1001);
    await editResource(stack, "reminders", firstReleaseShape);

    expect(opsByName(expectOk(await stack.preview()))).toEqual({ reminders: ["same"] });
    expect(opsByName(expectOk(await stack.up()))).toEqual({ reminders: ["same"] });
    expect(opsByName(expectOk(await stack.refresh()))).toEqual({ reminders: ["refresh"] });
    expect(opsByName(expectOk(await stack.up({ expectNoChanges: true })))).toEqual({ reminders: ["same"] });
    const destroyed = expectOk(await stack.destroy());
    expect(opsByName(destroyed)).toEqual({ reminders: ["delete"] });
    expect(messagesOf(destroyed)).toMatch(/already sent and cannot be recalled/);
    expect(recipientsSince(from)).toHaveLength(1001);
  });

  // The release that first recorded a digest (locale-ordered) left part-sent state the same way;
  // that digest is read by the "legacy locale-ordered digest" test below.
  test.each([["the first release (messages, no digest)", firstReleaseShape]])(
    "a part-sent batch as %s wrote it (no __provider, no reasons): the next up finishes it by update, no message twice",
    async (shape, toShape) => {
      const proxy = await startRefusingProxy(suite.emulator.url);
      try {
        const stack = await suite.stack("batch-stack", {
          config: {
            ...suite.serviceConfig(proxy.url),
            "batch-stack:count": "1001",
            "batch-stack:trigger": `part-sent ${shape}`,
            "batch-stack:template": "true",
          },
        });
        const from = suite.emulator.batches().length;
        // Every call refused: the batch is recorded part-sent with no call confirmed, the state to make the old one from.
        proxy.refuse = "+2547";
        expect((await stack.up()).ok).toBe(false);
        proxy.refuse = undefined;
        expect(recipientsSince(from)).toHaveLength(0);
        // As the earlier release sent it: by position, its first call (messages 0 to 999, as given) under `<prefix>-0`.
        const prefix = "5b1f2c3e-0d4a-4e8b-9c7f-1a2b3c4d5e6f";
        const [made] = resourcesNamed(await stack.exportState({ showSecrets: true }), "reminders");
        const client = new MessagingClient({ apiKey: API_KEY, baseUrl: suite.emulator.url });
        const firstCall = await client
          .sendMessageBatch(
            { stream: "transactional", messages: registeredMessages(made).slice(0, 1000) as never },
            { idempotencyKey: `${prefix}-0` },
          )
          .finally(() => client.close());
        expect(recipientsSince(from)).toHaveLength(1000);
        // As the earlier release recorded it: its id the prefix, the first call confirmed, and its init failure carrying
        // neither __provider nor reasons.
        await editResource(stack, "reminders", (resource) => {
          const old = toShape(resource);
          return {
            ...without(old, "initErrors"),
            id: prefix,
            outputs: { ...without(old.outputs, "__provider", "pendingCallKey"), idempotencyKeyPrefix: prefix, batchIds: [firstCall.id] },
          };
        });
        const id = resourcesNamed(await stack.exportState(), "reminders")[0].id;
        expect(id).toBe(prefix);

        // A refresh cannot read it: the host needs __provider in the recorded outputs before any provider code runs.
        expect((await stack.refresh()).ok).toBe(false);

        const preview = expectOk(await stack.preview());
        expect(opsByName(preview)).toEqual({ reminders: ["update"] });
        expect(recipientsSince(from)).toHaveLength(1000);

        // Update takes the provider from the new inputs, so it runs; a replacement would have
        // failed deleting the old copy, whose outputs have no provider.
        const up = expectOk(await stack.up());
        expect(opsByName(up)).toEqual({ reminders: ["update"] });
        expect(messagesOf(up)).toMatch(
          new RegExp(`${id} was only part-sent: sending the rest\\. Calls the service confirmed are not sent again`),
        );
        const recipients = recipientsSince(from);
        expect(recipients).toHaveLength(1001);
        expect(new Set(recipients).size).toBe(1001);

        // Now in the current shape, with its provider: an unchanged up sends nothing.
        const [recorded] = resourcesNamed(await stack.exportState({ showSecrets: true }), "reminders");
        const outputs = recorded.outputs as Record<string, unknown>;
        expect(revealed(outputs.messagesDigest)).toBe(messagesDigest(registeredMessages(recorded)));
        expect(outputs.__provider).toBe((recorded.inputs as Record<string, unknown>).__provider);
        expectOk(await stack.refresh());
        expect(opsByName(expectOk(await stack.up({ expectNoChanges: true })))).toEqual({ reminders: ["same"] });
        expectOk(await stack.destroy());
        expect(recipientsSince(from)).toHaveLength(1001);
      } finally {
        await proxy.close();
      }
    },
  );

  test("a legacy locale-ordered digest of unchanged messages: no replacement, nothing sent; a digest recorded in plain text is encrypted by the next up", async () => {
    const stack = await batchStack("legacy-digest", 3, { "batch-stack:template": "true" });
    const from = suite.emulator.batches().length;
    expectOk(await stack.up());
    const messages = registeredMessages(resourcesNamed(await stack.exportState({ showSecrets: true }), "reminders")[0]);
    // The two orders differ for these messages, so this test could fail.
    expect(legacyLocaleDigest(messages)).not.toBe(messagesDigest(messages));
    await editResource(stack, "reminders", (resource) => ({
      ...resource,
      outputs: { ...(resource.outputs as object), messagesDigest: revealedSecret(legacyLocaleDigest(messages)) },
    }));
    expect(opsByName(expectOk(await stack.up({ expectNoChanges: true })))).toEqual({ reminders: ["same"] });

    // A digest an earlier release recorded in plain text: the engine applies additionalSecretOutputs
    // to the recorded outputs of a same step too.
    const digest = messagesDigest(messages);
    await editResource(stack, "reminders", (resource) => ({
      ...resource,
      outputs: { ...(resource.outputs as object), messagesDigest: digest },
    }));
    expect(JSON.stringify(await stack.exportState())).toContain(digest);
    expect(opsByName(expectOk(await stack.up({ expectNoChanges: true })))).toEqual({ reminders: ["same"] });
    expect(JSON.stringify(await stack.exportState())).not.toContain(digest);
    expect(recipientsSince(from)).toHaveLength(3);
  });

  test("a legacy digest written under cs_CZ (keys in Czech order), read under C.UTF-8: unchanged, nothing sent", async () => {
    // Keys Czech orders otherwise: "ch" after "h".
    const model = JSON.stringify({ hotel: "Serena", channel: "sms", city: "Nairobi", Hour: "09:00" });
    const stack = await batchStack("legacy-locale", 3, { "batch-stack:template": "true", "batch-stack:model": model });
    const from = suite.emulator.batches().length;
    expectOk(await stack.up());
    const messages = registeredMessages(resourcesNamed(await stack.exportState({ showSecrets: true }), "reminders")[0]);
    const czech = legacyLocaleDigest(messages, new Intl.Collator("cs").compare);
    // The orders differ for these messages, so this test could fail.
    expect(czech).not.toBe(legacyLocaleDigest(messages, new Intl.Collator("en").compare));
    await editResource(stack, "reminders", (resource) => ({
      ...resource,
      outputs: { ...(resource.outputs as object), messagesDigest: revealedSecret(czech) },
    }));
    stack.setEnv({ LC_ALL: "C.UTF-8", LANG: "C.UTF-8" });
    expect(opsByName(expectOk(await stack.up({ expectNoChanges: true })))).toEqual({ reminders: ["same"] });
    expect(recipientsSince(from)).toHaveLength(3);
  });

  test("a state shape no release wrote is an error from diff: nothing is sent, nothing replaced, the state kept", async () => {
    const stack = await batchStack("unknown-shape", 2);
    const from = suite.emulator.batches().length;
    expectOk(await stack.up());
    await editResource(stack, "reminders", (resource) => ({ ...resource, outputs: without(resource.outputs, "messagesDigest") }));
    const before = resourcesNamed(await stack.exportState({ showSecrets: true }), "reminders");
    for (const result of [await stack.preview(), await stack.up()]) {
      expect(result.ok).toBe(false);
      expect(errorsOf(result)).toMatch(/recorded state has a shape this version of pulumi-messaging does not know.*Nothing was sent/s);
    }
    expect(resourcesNamed(await stack.exportState({ showSecrets: true }), "reminders")).toEqual(before);
    expect(recipientsSince(from)).toHaveLength(2);
  });

  test("a half-made endpoint recorded longer ago than the service remembers keys: not asked again, the failure gives the way out", async () => {
    const url = "https://hooks.example.com/half-made/too-old";
    const proxy = await startRefusingProxy(suite.emulator.url);
    try {
      const stack = await suite.stack("endpoint-stack", {
        config: { ...suite.serviceConfig(proxy.url), "endpoint-stack:endpoint": JSON.stringify({ ...ENDPOINT, url }) },
      });
      proxy.alterAnswer = (answer, path) => (path.startsWith("/v1/webhooks/endpoints") ? without(answer, "secret") : answer);
      expect((await stack.up()).ok).toBe(false);
      proxy.alterAnswer = undefined;
      const id = String(resourcesNamed(await stack.exportState(), "main")[0].id);
      const dayAndMore = new Date(Date.now() - 25 * 60 * 60 * 1000).toISOString();
      await editResource(stack, "main", (resource) => ({
        ...resource,
        outputs: { ...(resource.outputs as object), createRequestedAt: dayAndMore },
      }));

      const before = suite.emulator.requestCount();
      const up = await stack.up();
      expect(up.ok).toBe(false);
      expect(suite.emulator.requestCount()).toBe(before);
      expect(errorsOf(up)).toMatch(
        new RegExp(
          `${id} was created at ${dayAndMore}, too long ago to rely on the service still remembering its idempotency key.*nothing was sent.*adopt`,
          "s",
        ),
      );
      expect(suite.emulator.endpoints().filter((endpoint) => endpoint.url === url)).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });
});
