/** The MessageBatch runtime as functions of a test context (the engine tests run it through the host). */
import { IDENTITY_KEY, IdentityKey } from "../../../../client/identity-key";
import { SEND_PLANNED } from "../../../../client/send-messages";
import { PartialSendError } from "../../../../errors";
import { errorFromResponse } from "../../../../errors/from-response";
import { testContext } from "../../../support/provider-context";
import { messageBatch } from "../../../../provider/kinds/message-batch";
import * as batch from "../../../../provider/kinds/message-batch/runtime";

const impl = messageBatch.implementation;
import { legacyLocaleDigest, messagesDigest } from "../../../../provider/messages-digest";
import { PROVIDER_KEY, ResourceInitFailedError, UNKNOWN } from "../../../../provider/protocol";

const messages = [
  { tos: ["+254700000001"], body: "hello" },
  { tos: ["+254700000002"], body: "hi" },
];
const inputs = { stream: "transactional", messages, [PROVIDER_KEY]: "serialized" };

const sent = (sentAt: string | null) => ({
  stream: "transactional",
  triggers: null,
  messageCount: 2,
  messagesDigest: messagesDigest(messages),
  idempotencyKeyPrefix: "prefix-1",
  batchIds: ["msba_1"],
  sentAt,
  [PROVIDER_KEY]: "serialized",
});

describe("the TypeScript class's messages text (messagesJson)", () => {
  const text = JSON.stringify(messages);
  test("the same text as recorded is not parsed; another is, and judged in full; state recorded with messages reads it as unchanged", async () => {
    const recorded = { stream: "transactional", messagesJson: "not parsed" };
    expect(await impl.check(testContext(), recorded, recorded)).toEqual({ inputs: recorded });
    const bad = JSON.stringify([...messages, { tos: ["0700"], body: "x" }]);
    const judged = await impl.check(
      testContext(),
      { stream: "transactional", messagesJson: text },
      { stream: "transactional", messagesJson: bad },
    );
    expect(judged.failures?.map((failure) => failure.property)).toEqual(["messages.2.tos.0"]);
    expect((await impl.check(testContext(), {}, { stream: "transactional", messagesJson: "[" })).failures).toEqual([
      { property: "messages", reason: expect.stringMatching(/^not valid JSON/) },
    ]);
    // An upgrade: the recorded inputs hold the messages, the new ones their text.
    const upgraded = { stream: "transactional", messagesJson: text };
    expect(await impl.check(testContext(), inputs, upgraded)).toEqual({ inputs: upgraded });
    expect(impl.diff(testContext(), "prefix-1", sent("2026-01-01T00:00:00Z"), upgraded)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect(impl.diff(testContext(), "prefix-1", sent("2026-01-01T00:00:00Z"), { ...upgraded, messagesJson: bad }).replaces).toEqual([
      "messages",
    ]);
  });

  test("created from the text: the same messages, digest and key prefix as from the objects", async () => {
    const key = IdentityKey.fromApiKey("sk_test_text");
    const seen: unknown[] = [];
    const client = {
      [IDENTITY_KEY]: key,
      [SEND_PLANNED]: async (sentMessages: unknown, options: { idempotencyKeyPrefix: string }) => {
        seen.push(sentMessages, options.idempotencyKeyPrefix);
        return { batches: [{ index: 0, id: "msba_1", count: 2, idempotencyKey: "k" }] };
      },
    };
    const fromText = await batch.create(testContext(client), {
      stream: "transactional",
      messagesJson: text,
      idempotencyScope: "s",
    } as never);
    const fromObjects = await batch.create(testContext(client), { ...inputs, idempotencyScope: "s" });
    expect(fromText.id).toBe(fromObjects.id);
    expect(fromText.outs?.messagesDigest).toBe(messagesDigest(messages));
    expect(seen[0]).toEqual(messages);
  });
});

describe("check", () => {
  test("messages equal to the recorded ones are not judged again (the inputs come back as given); changed ones are, in full", async () => {
    const news = { stream: "transactional", messages: messages.map((message) => ({ ...message })) };
    const unchanged = await impl.check(testContext(), inputs, news);
    expect(unchanged).toEqual({ inputs: news });
    expect(unchanged.inputs).toBe(news);
    // A recorded list holding a message no check would pass now: equal, so not judged (it was when recorded).
    const recordedBad = [{ tos: ["0700"], body: "x" }];
    expect(
      (await impl.check(testContext(), { ...inputs, messages: recordedBad }, { ...news, messages: recordedBad })).failures,
    ).toBeUndefined();
    const changed = await impl.check(testContext(), inputs, { ...news, messages: [...messages, { tos: ["0700"], body: "x" }] });
    expect(changed.failures?.map((failure) => failure.property)).toEqual(["messages.2.tos.0"]);
    // Another stream: judged again.
    expect(
      (await impl.check(testContext(), { ...inputs, messages: recordedBad }, { stream: "marketing", messages: recordedBad })).failures,
    ).toHaveLength(1);
  });

  test("names each bad message field; preview unknowns pass", async () => {
    const failures = (await impl.check(testContext(), {}, { stream: "", messages: [{ tos: ["0700"], body: "x" }] })).failures!;
    expect(failures.map((failure) => failure.property)).toEqual(expect.arrayContaining(["stream", "messages.0.tos.0"]));
    expect((await impl.check(testContext(), {}, { stream: "transactional", messages: UNKNOWN })).failures).toBeUndefined();
  });
});

describe("diff", () => {
  test("unchanged inputs of a sent batch: no change", async () => {
    expect(impl.diff(testContext(), "prefix-1", sent("2026-01-01T00:00:00Z"), inputs).changes).toBe(false);
  });
  test.each([
    ["messages", { messages: [messages[0]] }],
    ["stream", { stream: "marketing" }],
    ["triggers", { triggers: ["2"] }],
  ])("a change to %s replaces (sends again)", (key, change) => {
    expect(impl.diff(testContext(), "prefix-1", sent("2026-01-01T00:00:00Z"), { ...inputs, ...change }).replaces).toEqual([key]);
  });
  test("a part-sent batch reports a change without replacing, so the engine calls update whatever refresh cleared; diff says what is left", async () => {
    const context = testContext();
    expect(impl.diff(context, "prefix-1", sent(null), inputs)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect(context.warnings).toEqual(["note: reminders: part-sent: 1 call of its 2 messages confirmed; `pulumi up` sends the rest"]);
  });
});

describe("every state shape this package has written", () => {
  // Template models with mixed-case keys: where the legacy digest and v1 differ.
  const templated = [{ tos: ["+254700000001"], template: { id: "t_1", model: { Name: "Amina", age: 3, Zeta: { b: 1, A: 2 } } } }];
  const templatedInputs = { stream: "transactional", messages: templated, [PROVIDER_KEY]: "serialized" };
  // The first release (no digest): the messages themselves among the outputs; part-sent without __provider.
  const firstRelease = (sentAt: string | null) => ({
    stream: "transactional",
    messages: templated,
    triggers: null,
    messageCount: 1,
    idempotencyKeyPrefix: "prefix-0",
    batchIds: ["msba_0"],
    sentAt,
    ...(sentAt === null ? {} : { [PROVIDER_KEY]: "serialized" }),
  });

  // The first release's batch in the current shape: its messages as their v1 digest.
  const firstReleaseNow = (sentAt: unknown) => ({
    stream: "transactional",
    triggers: null,
    messageCount: 1,
    messagesDigest: messagesDigest(templated),
    idempotencyKeyPrefix: "prefix-0",
    batchIds: ["msba_0"],
    sentAt,
    pendingCallKey: null,
  });

  test("migrate: golden recorded states of every release, each as the current state", async () => {
    const current = { ...sent("2026-01-01T00:00:00Z") };
    const { [PROVIDER_KEY]: _provider, ...currentState } = current;
    // Recorded before a call's key was kept: none was out.
    expect(batch.migrate(current, "prefix-1")).toEqual({ ...currentState, pendingCallKey: null });
    expect(batch.migrate({ ...current, sentAt: null, pendingCallKey: "mc3-1" }, "mb3-1")).toMatchObject({ pendingCallKey: "mc3-1" });
    // The first release: its messages become their v1 digest, its count kept.
    expect(batch.migrate(firstRelease(null), "prefix-0")).toEqual(firstReleaseNow(null));
    // A legacy digest is kept as recorded (diff reads both forms); unreadable chunk ids are none confirmed.
    const legacy = { ...current, messagesDigest: legacyLocaleDigest(templated), batchIds: "garbled" };
    expect(batch.migrate(legacy, "prefix-1")).toMatchObject({ messagesDigest: legacyLocaleDigest(templated), batchIds: [] });
    expect(() => batch.migrate({ stream: "transactional" }, "prefix-9")).toThrow(/message batch prefix-9: its recorded state has a shape/);
  });

  test("a legacy locale-ordered digest of the same messages: unchanged", async () => {
    expect(legacyLocaleDigest(templated)).not.toBe(messagesDigest(templated));
    const olds = { ...sent("2026-01-01T00:00:00Z"), messagesDigest: legacyLocaleDigest(templated), messageCount: 1 };
    expect(impl.diff(testContext(), "prefix-1", olds, templatedInputs)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect(impl.diff(testContext(), "prefix-1", olds, { ...templatedInputs, messages: messages }).replaces).toEqual(["messages"]);
  });

  test("the first release's shape: unchanged when the messages are, whatever their key order; a real change replaces", async () => {
    const reordered = [{ template: { model: { Zeta: { A: 2, b: 1 }, age: 3, Name: "Amina" }, id: "t_1" }, tos: ["+254700000001"] }];
    expect(impl.diff(testContext(), "prefix-0", firstRelease("2026-01-01T00:00:00Z"), { ...templatedInputs, messages: reordered })).toEqual(
      {
        changes: false,
        replaces: [],
        deleteBeforeReplace: false,
      },
    );
    expect(impl.diff(testContext(), "prefix-0", firstRelease("2026-01-01T00:00:00Z"), inputs).replaces).toEqual(["messages"]);
  });

  test("the first release's part-sent shape is finished by update under its recorded prefix, in the current shape", async () => {
    expect(impl.diff(testContext(), "prefix-0", firstRelease(null), templatedInputs)).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    const prefixes: string[] = [];
    const prevalidated: unknown[] = [];
    const client = {
      // As the client does: chunks in skipChunks are not sent and not listed.
      [SEND_PLANNED]: async (
        _m: unknown,
        options: { idempotencyKeyPrefix: string; skipChunks?: ReadonlySet<number> },
        hooks: { prevalidated?: boolean },
      ) => {
        prefixes.push(options.idempotencyKeyPrefix);
        prevalidated.push(hooks.prevalidated);
        return { batches: options.skipChunks?.has(0) ? [] : [{ index: 0, id: "msba_0", count: 1, idempotencyKey: "prefix-0-0" }] };
      },
    };
    const updated = await impl.update(testContext(client), "prefix-0", firstRelease(null), templatedInputs);
    expect(prefixes).toEqual(["prefix-0"]);
    // Check validated the messages: the client does not parse them again.
    expect(prevalidated).toEqual([true]);
    expect(updated.outs).toEqual({ ...firstReleaseNow(expect.any(String)), serviceUrl: null });
  });

  test.each([
    ["no digest and no messages", { stream: "transactional", idempotencyKeyPrefix: "p", sentAt: null }],
    ["a digest of a form never written", { ...sent("2026-01-01T00:00:00Z"), messagesDigest: `v9:${messagesDigest(messages)}` }],
    ["no key prefix", { ...sent("2026-01-01T00:00:00Z"), idempotencyKeyPrefix: undefined }],
    // Read as missing, the stream would look changed, and a changed stream replaces (sends again).
    ["no stream", { ...sent("2026-01-01T00:00:00Z"), stream: undefined }],
  ])(
    "an unknown shape (%s) is an error from diff and update that sends nothing, never a replacement; delete still works",
    async (_case, olds) => {
      expect(() => impl.diff(testContext(), "prefix-1", olds, inputs)).toThrow(
        /recorded state has a shape this version .* does not know.*Nothing was sent/s,
      );
      await expect(impl.update(testContext(), "prefix-1", olds, inputs)).rejects.toThrow(/does not know/);
      // A delete that failed here would block `pulumi destroy`.
      const context = testContext();
      expect(() => impl.remove(context, "prefix-1", olds)).not.toThrow();
      expect(context.warnings.join("")).toMatch(/removed from the stack; its messages were already sent/);
    },
  );
});

describe("the id of a new batch (mb3)", () => {
  const scope = "s2/identity/proj//reminders";
  const key = IdentityKey.fromApiKey("sk_test_golden");
  test("golden: the same place, stream, messages and triggers under the same API key get the same id on every create; key order does not count", async () => {
    const idOf = async (batchInputs: Record<string, unknown>) => {
      const client = {
        [IDENTITY_KEY]: key,
        [SEND_PLANNED]: async () => ({ batches: [{ index: 0, id: "msba_1", count: 2, idempotencyKey: "k" }] }),
      };
      return (await batch.create(testContext(client), { idempotencyScope: scope, ...batchInputs } as never)).id;
    };
    expect(await idOf({ stream: "transactional", messages })).toBe("mb3-6a85c8c0f070112e61b75e3f04aa350c");
    const reordered = messages.map(({ tos, body }) => ({ body, tos }));
    expect(await idOf({ stream: "transactional", messages: reordered })).toBe("mb3-6a85c8c0f070112e61b75e3f04aa350c");
    const others = [
      await idOf({ stream: "transactional", messages, triggers: ["2026-11-22"] }),
      await idOf({ stream: "marketing", messages }),
      await idOf({ stream: "transactional", messages: [messages[0]] }),
      await idOf({ stream: "transactional", messages, idempotencyScope: "s2/identity/proj//other" }),
    ];
    expect(new Set(["mb3-6a85c8c0f070112e61b75e3f04aa350c", ...others]).size).toBe(5);
  });
});

const withKey = <C extends object>(client: C) => ({ [IDENTITY_KEY]: IdentityKey.fromApiKey("sk_test_runtime"), ...client });

describe("create and update", () => {
  test("calls the service answered from its record are said, once, as not sent again", async () => {
    const client = {
      [SEND_PLANNED]: async (_m: unknown, options: { idempotencyKeyPrefix: string }, hooks: { onReplayed?: (batch: unknown) => void }) => {
        const batch = { index: 0, id: "msba_1", count: 2, idempotencyKey: `${options.idempotencyKeyPrefix}-0` };
        hooks.onReplayed?.(batch);
        return { batches: [batch] };
      },
    };
    const context = testContext({ [IDENTITY_KEY]: IdentityKey.fromApiKey("sk_test_replayed"), ...client });
    const { id } = await batch.create(context, { ...inputs, idempotencyScope: "s" });
    expect(context.warnings).toEqual([
      `note: message batch ${id}: 1 of 1 calls were answered from the service's record of an earlier run under this stack's identity (an interrupted \`up\` of this stack, or one whose answers were lost; or another stack given the same messaging:stackIdentity, which each stack must have its own of), under the same idempotency keys: their messages were not sent again.`,
      "note: reminders: sent 2 messages in 1 call; 1 call of them answered from the service's record (not sent again)",
    ]);
  });

  test.each([
    ["a server error", 503, /Run `pulumi up` again to send the rest\./],
    ["a refused API key", 401, /Once that setting is fixed, `pulumi up` sends the rest\./],
    [
      "a call the service found too large",
      413,
      /refused the call \(HTTP 413\), and `pulumi up` would send the same call again.*its limit is lower/s,
    ],
    [
      "messages the service refused",
      422,
      /refused the call \(HTTP 422\), and `pulumi up` would send the same call again, to be refused again/,
    ],
  ])("a part-sent batch stopped by %s says only what the next up can do", async (_case, status, next) => {
    const client = {
      [SEND_PLANNED]: async (_m: unknown, options: { idempotencyKeyPrefix: string }) => {
        throw new PartialSendError(
          [{ index: 0, id: "msba_1", count: 1, idempotencyKey: `${options.idempotencyKeyPrefix}-0` }],
          1,
          options.idempotencyKeyPrefix,
          errorFromResponse(status, { method: "POST", path: "/v1/message_batches" }, undefined),
        );
      },
    };
    const failure = await batch.create(testContext(withKey(client)), inputs).catch((e) => e);
    expect(failure.reasons[0]).toMatch(next);
    if (status !== 503) expect(failure.reasons[0]).not.toMatch(/run `pulumi up` again/i);
  });

  test("a send that stops part-way is recorded under its key prefix, with reasons and the serialized provider", async () => {
    const client = {
      [SEND_PLANNED]: async (_m: unknown, options: { idempotencyKeyPrefix: string }) => {
        throw new PartialSendError(
          [{ index: 0, id: "msba_1", count: 1, idempotencyKey: `${options.idempotencyKeyPrefix}-0` }],
          1,
          options.idempotencyKeyPrefix,
          new Error("HTTP 503"),
        );
      },
    };
    const failure = await batch.create(testContext(withKey(client)), { ...inputs, idempotencyScope: "s" }).catch((e) => e);
    expect(failure).toBeInstanceOf(ResourceInitFailedError);
    expect(failure.id).toMatch(/^mb3-[0-9a-f]{32}$/);
    expect(failure.reasons[0]).toMatch(/1 of 2 messages were confirmed.*HTTP 503.*Run `pulumi up` again/);
    expect(failure.properties).toMatchObject({
      sentAt: null,
      batchIds: ["msba_1"],
      idempotencyKeyPrefix: failure.id,
      [PROVIDER_KEY]: "serialized",
    });
  });

  test("update of a part-sent batch resends under the recorded prefix; of a sent one, it refuses", async () => {
    const prefixes: string[] = [];
    const client = {
      [SEND_PLANNED]: async (_m: unknown, options: { idempotencyKeyPrefix: string }) => {
        prefixes.push(options.idempotencyKeyPrefix);
        return { batches: [{ index: 0, id: "msba_1", count: 2, idempotencyKey: "k" }] };
      },
    };
    const context = testContext(client);
    const updated = await impl.update(context, "prefix-1", sent(null), inputs);
    expect(prefixes).toEqual(["prefix-1"]);
    // The step that acts says what it does.
    expect(context.warnings.join("")).toMatch(
      /prefix-1 was only part-sent: sending the rest\. Calls the service confirmed are not sent again/,
    );
    expect(updated.outs).toMatchObject({ idempotencyKeyPrefix: "prefix-1", sentAt: expect.any(String) });
    await expect(impl.update(testContext(client), "prefix-1", sent("2026-01-01T00:00:00Z"), inputs)).rejects.toThrow(/cannot be updated/);
  });

  test("the resume skips the chunks the service confirmed (it may have forgotten their keys) and records their ids first", async () => {
    const calls: Array<{ skip: number[] }> = [];
    const client = {
      [SEND_PLANNED]: async (_m: unknown, options: { skipChunks?: ReadonlySet<number> }) => {
        calls.push({ skip: [...(options.skipChunks ?? [])] });
        return { batches: [{ index: 2, id: "msba_3", count: 1, idempotencyKey: "prefix-1-2" }] };
      },
    };
    const updated = await impl.update(testContext(client), "prefix-1", { ...sent(null), batchIds: ["msba_1", "msba_2"] }, inputs);
    expect(calls).toEqual([{ skip: [0, 1] }]);
    expect(updated.outs).toMatchObject({ batchIds: ["msba_1", "msba_2", "msba_3"], sentAt: expect.any(String) });
  });
});

describe("a batch moved to another service", () => {
  const at = (baseUrl: string) => ({ get: (key: string) => (key === "messaging:baseUrl" ? baseUrl : undefined), warn: () => undefined });
  const staging = "https://staging.example.com";

  test("sent: replaced, to be sent there", async () => {
    await expect(
      messageBatch.runtime.diff(
        at("https://api.example.com"),
        "prefix-1",
        { ...sent("2026-01-01T00:00:00Z"), serviceUrl: staging },
        inputs,
      ),
    ).resolves.toMatchObject({
      changes: true,
      replaces: ["serviceUrl"],
    });
  });

  test("part-sent: refused, nothing sent (made anew there, its confirmed messages would go out twice)", async () => {
    await expect(
      messageBatch.runtime.diff(at("https://api.example.com"), "prefix-1", { ...sent(null), serviceUrl: staging }, inputs),
    ).rejects.toThrow(
      /unfinished at https:\/\/staging\.example\.com.*Nothing was sent\. Set the base URL back and run `pulumi up` to finish it there/s,
    );
    // Still finished in place where it lives.
    await expect(
      messageBatch.runtime.diff(at(`${staging}/`), "prefix-1", { ...sent(null), serviceUrl: staging }, inputs),
    ).resolves.toMatchObject({
      changes: true,
      replaces: [],
    });
  });
});
