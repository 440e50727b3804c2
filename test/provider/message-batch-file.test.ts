/**
 * A MessageBatch from a file, as functions of a test context: the streamed digest and cut equal
 * the inline ones for the same messages; `check` reads and judges the file (errors naming the
 * path and the line), or keeps what it read when the file's hash is the recorded one; `diff`
 * compares by content and refuses a part-sent batch whose messages changed.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { messageBatch } from "../../provider/kinds/message-batch";
import { CALL_MAX_BYTES } from "../../provider/kinds/message-batch/calls";
import { mb3Scheme, planCalls } from "../../provider/kinds/message-batch/call-plan";
import { IdentityKey } from "../../client/identity-key";
import { ASSET_SIG } from "../../provider/kinds/message-batch/file-asset";
import { MESSAGES_FILE_READ } from "../../provider/kinds/message-batch/schema";
import { MessagesDigest, messagesDigest } from "../../provider/messages-digest";
import { testContext } from "../support/provider-context";

const impl = messageBatch.implementation;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-batch-file-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const messages = Array.from({ length: 2500 }, (_, i) => ({ tos: [`+2547${10000000 + i}`], body: `Reminder ${i}` }));

/** Writes `text` to `name` and returns the file asset the engine would pass (with its hash). */
function asset(name: string, text: string): Record<string, unknown> {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return { [ASSET_SIG.key]: ASSET_SIG.value, path: file, hash: createHash("sha256").update(text).digest("hex") };
}
const ndjson = (items: unknown[]): string => items.map((item) => `${JSON.stringify(item)}\n`).join("");

test("the streamed digest and plan are those of the same messages inline", async () => {
  const digest = new MessagesDigest();
  for (const message of messages) digest.add(message);
  expect(digest.finish()).toBe(messagesDigest(messages));

  // Four messages of a third of a call each: the bytes cut before the count does.
  const third = { tos: ["+254700000009"], body: "x".repeat(CALL_MAX_BYTES / 3) };
  const large = [...messages.slice(0, 3), third, third, third, third, ...messages.slice(3, 1500)];
  async function* stream() {
    yield* large;
  }
  const scheme = mb3Scheme(IdentityKey.fromApiKey("sk_test_stream"), "scope", "transactional", null);
  const streamed = await planCalls(scheme, stream());
  expect(streamed).toEqual(await planCalls(scheme, large));
  expect(streamed.calls.length).toBeGreaterThan(2);
});

describe("check", () => {
  test("reads the file: its digest and count among the inputs, the same digest as inline; an NDJSON or CSV file alike", async () => {
    const news = { stream: "transactional", messagesFile: asset("ok.ndjson", ndjson(messages)) };
    const checked = await impl.check(testContext(), {}, news);
    expect(checked.failures).toBeUndefined();
    expect(checked.inputs[MESSAGES_FILE_READ]).toEqual({
      hash: (news.messagesFile as { hash: string }).hash,
      stream: "transactional",
      digest: messagesDigest(messages),
      count: 2500,
      // What preview says it will send: the calls the send will make.
      calls: (await planCalls(mb3Scheme(IdentityKey.fromApiKey("any"), "scope", "transactional", null), messages)).calls.length,
      recipients: 2500,
      recipientsExact: true,
    });
    const csv = `to,body\n${messages.map((message) => `${message.tos[0]},${message.body}`).join("\n")}\n`;
    const fromCsv = await impl.check(testContext(), {}, { stream: "transactional", messagesFile: asset("ok.csv", csv) });
    expect((fromCsv.inputs[MESSAGES_FILE_READ] as { digest: string }).digest).toBe(messagesDigest(messages));
  });

  test("an unchanged file (the recorded hash, the same stream) is not read again", async () => {
    const recorded = { hash: "a".repeat(64), stream: "transactional", digest: "d".repeat(64), count: 7 };
    const gone = { [ASSET_SIG.key]: ASSET_SIG.value, path: path.join(dir, "gone.ndjson"), hash: recorded.hash };
    const olds = { stream: "transactional", messagesFile: gone, [MESSAGES_FILE_READ]: recorded };
    const checked = await impl.check(testContext(), olds, { stream: "transactional", messagesFile: gone });
    expect(checked).toEqual({ inputs: { stream: "transactional", messagesFile: gone, [MESSAGES_FILE_READ]: recorded } });
    // Another stream: read again (here it is missing, and says so).
    const other = await impl.check(testContext(), olds, { stream: "marketing", messagesFile: gone });
    expect(other.failures).toEqual([{ property: "messagesFile", reason: expect.stringContaining(`${gone.path} cannot be read`) }]);
  });

  test("errors name the path and the line; a missing file names its path; both or neither of messages and messagesFile are refused", async () => {
    const bad = ndjson([messages[0], { tos: ["0700"], body: "x" }, messages[1]]) + "{not json\n";
    const result = await impl.check(testContext(), {}, { stream: "transactional", messagesFile: asset("bad.ndjson", bad) });
    const reasons = result.failures!.map((failure) => `${failure.property}: ${failure.reason}`);
    expect(reasons).toEqual([
      expect.stringMatching(new RegExp(`^messagesFile: ${path.join(dir, "bad.ndjson")}: line 2: tos\\[0\\]: `)),
      expect.stringMatching(/line 4: not valid JSON/),
    ]);
    expect(result.inputs[MESSAGES_FILE_READ]).toBeUndefined();

    const missing = { [ASSET_SIG.key]: ASSET_SIG.value, path: path.join(dir, "none.ndjson"), hash: "b".repeat(64) };
    const absent = await impl.check(testContext(), {}, { stream: "transactional", messagesFile: missing });
    expect(absent.failures).toEqual([{ property: "messagesFile", reason: expect.stringMatching(/none\.ndjson cannot be read: .*ENOENT/) }]);

    const both = await impl.check(testContext(), {}, { stream: "transactional", messages, messagesFile: missing });
    expect(both.failures).toEqual([{ property: "messages", reason: "expected `messages` or `messagesFile`, not both" }]);
    const neither = await impl.check(testContext(), {}, { stream: "transactional" });
    expect(neither.failures).toEqual([{ property: "messages", reason: "expected `messages` or `messagesFile`" }]);
    const text = await impl.check(
      testContext(),
      {},
      { stream: "transactional", messagesFile: { [ASSET_SIG.key]: ASSET_SIG.value, text: "x" } },
    );
    expect(text.failures?.[0]).toMatchObject({ property: "messagesFile", reason: expect.stringMatching(/expected a file asset/) });
  });

  test("a file whose bytes are not those the engine hashed is refused (it changed while being read)", async () => {
    const changed = { ...asset("race.ndjson", ndjson(messages.slice(0, 3))), hash: "c".repeat(64) };
    const result = await impl.check(testContext(), {}, { stream: "transactional", messagesFile: changed });
    expect(result.failures).toEqual([{ property: "messagesFile", reason: expect.stringMatching(/changed while it was being read/) }]);
  });
});

describe("diff", () => {
  const state = (sentAt: string | null, digest = messagesDigest(messages)) => ({
    stream: "transactional",
    triggers: null,
    messageCount: messages.length,
    messagesDigest: digest,
    idempotencyKeyPrefix: "mb2-x",
    batchIds: ["msba_1"],
    sentAt,
  });
  const fileInputs = (digest: string) => ({
    stream: "transactional",
    messagesFile: { [ASSET_SIG.key]: ASSET_SIG.value, hash: "e".repeat(64) },
    [MESSAGES_FILE_READ]: { hash: "e".repeat(64), stream: "transactional", digest, count: messages.length },
  });

  test("by content: the same messages inline or in a file are unchanged; other messages replace, naming messagesFile", () => {
    expect(impl.diff(testContext(), "mb2-x", state("2026-01-01T00:00:00Z"), fileInputs(messagesDigest(messages))).changes).toBe(false);
    expect(impl.diff(testContext(), "mb2-x", state("2026-01-01T00:00:00Z"), fileInputs("f".repeat(64)))).toEqual({
      changes: true,
      replaces: ["messagesFile"],
      deleteBeforeReplace: false,
    });
  });

  test("part-sent: unchanged finishes (update); changed messages are refused, naming the ways out; a new trigger replaces", () => {
    expect(impl.diff(testContext(), "mb2-x", state(null), fileInputs(messagesDigest(messages)))).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect(() => impl.diff(testContext(), "mb2-x", state(null), fileInputs("f".repeat(64)))).toThrow(
      /mb2-x was only part-sent \(1 call\(s\) of its 2500 messages confirmed\) and its messagesFile changed since.*restore the messages.*change `triggers`/s,
    );
    expect(() => impl.diff(testContext(), "mb2-x", state(null), { stream: "transactional", messages: messages.slice(1) })).toThrow(
      /and its messages changed since/,
    );
    expect(impl.diff(testContext(), "mb2-x", state(null), { ...fileInputs("f".repeat(64)), triggers: ["2"] }).replaces).toEqual([
      "messagesFile",
      "triggers",
    ]);
  });
});
