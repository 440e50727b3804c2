/** The MessageBatch runtime as functions of a test context (the engine tests run it through the host). */
import { PartialSendError } from "../../errors";
import { testContext } from "./test-context";
import * as batch from "../../provider/message-batch-runtime";
import { PROVIDER_KEY, ResourceInitFailedError, UNKNOWN } from "../../provider/protocol";

const messages = [
  { tos: ["+254700000001"], body: "hello" },
  { tos: ["+254700000002"], body: "hi" },
];
const inputs = { stream: "transactional", messages, [PROVIDER_KEY]: "serialized" };

const sent = (sentAt: string | null) => ({
  stream: "transactional",
  triggers: null,
  messageCount: 2,
  messagesDigest: batch.messagesDigest(messages),
  idempotencyKeyPrefix: "prefix-1",
  batchIds: ["msba_1"],
  sentAt,
  [PROVIDER_KEY]: "serialized",
});

describe("check", () => {
  test("names each bad message field; preview unknowns pass", () => {
    const failures = batch.check(undefined, {}, { stream: "", messages: [{ tos: ["0700"], body: "x" }] }).failures!;
    expect(failures.map((failure) => failure.property)).toEqual(expect.arrayContaining(["stream", "messages.0.tos.0"]));
    expect(batch.check(undefined, {}, { stream: "transactional", messages: UNKNOWN }).failures).toBeUndefined();
  });
});

describe("diff", () => {
  test("unchanged inputs of a sent batch: no change", () => {
    expect(batch.diff(testContext(), "prefix-1", sent("2026-01-01T00:00:00Z"), inputs).changes).toBe(false);
  });
  test.each([
    ["messages", { messages: [messages[0]] }],
    ["stream", { stream: "marketing" }],
    ["triggers", { triggers: ["2"] }],
  ])("a change to %s replaces (sends again)", (key, change) => {
    expect(batch.diff(testContext(), "prefix-1", sent("2026-01-01T00:00:00Z"), { ...inputs, ...change }).replaces).toEqual([key]);
  });
  test("a part-sent batch reports a change without replacing, so the engine calls update whatever refresh cleared", () => {
    const context = testContext();
    expect(batch.diff(context, "prefix-1", sent(null), inputs)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect(context.warnings.join("")).toMatch(/part-sent.*sends the rest/);
  });
});

describe("create and update", () => {
  test("a send that stops part-way is recorded under its key prefix, with reasons and the serialized provider", async () => {
    const client = {
      sendMessages: async (_m: unknown, options: { idempotencyKeyPrefix: string }) => {
        throw new PartialSendError(
          [{ index: 0, id: "msba_1", count: 1, idempotencyKey: `${options.idempotencyKeyPrefix}-0` }],
          1,
          options.idempotencyKeyPrefix,
          new Error("HTTP 503"),
        );
      },
    };
    const failure = await batch.create(testContext(client), inputs, "prefix-1").catch((e) => e);
    expect(failure).toBeInstanceOf(ResourceInitFailedError);
    expect(failure.id).toBe("prefix-1");
    expect(failure.reasons[0]).toMatch(/1 of 2 messages were confirmed.*HTTP 503.*run `pulumi up` again/);
    expect(failure.properties).toMatchObject({
      sentAt: null,
      batchIds: ["msba_1"],
      idempotencyKeyPrefix: "prefix-1",
      [PROVIDER_KEY]: "serialized",
    });
  });

  test("update of a part-sent batch resends under the recorded prefix; of a sent one, it refuses", async () => {
    const prefixes: string[] = [];
    const client = {
      sendMessages: async (_m: unknown, options: { idempotencyKeyPrefix: string }) => {
        prefixes.push(options.idempotencyKeyPrefix);
        return { batches: [{ index: 0, id: "msba_1", count: 2, idempotencyKey: "k" }] };
      },
    };
    const updated = await batch.update(testContext(client), "prefix-1", sent(null), inputs);
    expect(prefixes).toEqual(["prefix-1"]);
    expect(updated.outs).toMatchObject({ idempotencyKeyPrefix: "prefix-1", sentAt: expect.any(String) });
    await expect(batch.update(testContext(client), "prefix-1", sent("2026-01-01T00:00:00Z"), inputs)).rejects.toThrow(/cannot be updated/);
  });
});
