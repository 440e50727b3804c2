/**
 * The cut of batches part-sent by earlier releases (by position: at most 1,000 messages and
 * 10 MiB of JSON a call). It is part of such a batch's identity (call i goes under `<prefix>-<i>`),
 * so it is pinned here: for batches whose calls of 1,000 fit, the cut every earlier release made;
 * for larger messages, the cut the last of them made. Then the runtime against the emulator: a
 * batch an earlier release could never send (an 11 MB call, refused with 413) goes out once.
 */
import { startEmulator, type Emulator } from "../../../../emulator";
import { messageBatch } from "../../../../provider/kinds/message-batch";
import { CALL_MAX_BYTES } from "../../../../provider/kinds/message-batch/calls";
import { planCalls, positionScheme } from "../../../../provider/kinds/message-batch/call-plan";
import { testContext } from "../../../support/provider-context";
import { IDEMPOTENCY_SCOPE } from "../../../../provider/protocol";

const sms = (i: number) => ({ tos: [`+2547${String(10000000 + i).padStart(8, "0")}`], body: `Reminder ${i}: ${"x".repeat(140)}` });
const long = (i: number) => ({ tos: [`+2547${String(10000000 + i).padStart(8, "0")}`], body: `Notice ${i}: ${"y".repeat(11_000)}` });
/** 2,000 messages: 1,000 SMS, then 1,000 of 11 KB (together an 11 MB call when cut by count alone). */
const callSizes = async (stream: string, messages: unknown[]) =>
  (await planCalls(positionScheme("mb2-x", stream), messages)).calls.map((call) => call.count);
const mixed = () => [...Array.from({ length: 1000 }, (_, i) => sms(i)), ...Array.from({ length: 1000 }, (_, i) => long(1000 + i))];

describe("the cut (golden)", () => {
  test("calls of 1,000 that fit are cut as every earlier release cut them: by count", async () => {
    expect(
      await callSizes(
        "transactional",
        Array.from({ length: 2001 }, (_, i) => sms(i)),
      ),
    ).toEqual([1000, 1000, 1]);
    expect(
      await callSizes(
        "transactional",
        Array.from({ length: 30_000 }, (_, i) => sms(i)),
      ),
    ).toEqual(Array(30).fill(1000));
  });

  test("larger messages are cut by bytes too: pinned, and every call's body is within the limit", async () => {
    const messages = mixed();
    const sizes = await callSizes("transactional", messages);
    expect(sizes).toEqual([1000, 949, 51]);
    let offset = 0;
    for (const size of sizes) {
      const body = JSON.stringify({ stream: "transactional", messages: messages.slice(offset, offset + size) });
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(CALL_MAX_BYTES);
      offset += size;
    }
    // One more message in the second call would not have fit.
    const tooMany = JSON.stringify({ stream: "transactional", messages: messages.slice(1000, 1000 + 950) });
    expect(Buffer.byteLength(tooMany)).toBeGreaterThan(CALL_MAX_BYTES);
  });
});

test("check refuses a message too large for a call of its own, naming it, and passes the rest", async () => {
  const news = { stream: "transactional", messages: [sms(0), { tos: ["+254712345678"], body: "z".repeat(CALL_MAX_BYTES) }] };
  const result = await messageBatch.implementation.check(testContext(), {}, news);
  expect(result.failures).toEqual([
    { property: "messages.1", reason: expect.stringMatching(/takes \d+ bytes as JSON.*cannot be sent even alone/) },
  ]);
  expect((await messageBatch.implementation.check(testContext(), {}, { ...news, messages: [sms(0)] })).failures).toBeUndefined();
});

describe("against the emulator", () => {
  const API_KEY = "sk_test_calls_7f20";
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: API_KEY });
  });
  afterAll(async () => emulator?.close());

  test("2,000 messages whose second 1,000 carry 11 KB bodies go out once, in calls under the limit", async () => {
    const config = { get: (key: string) => ({ "messaging:apiKey": API_KEY, "messaging:baseUrl": emulator.url })[key] };
    const result = await messageBatch.runtime.create(config, {
      stream: "transactional",
      messages: mixed(),
      [IDEMPOTENCY_SCOPE]: "p/dev/notices",
    });
    expect(result.outs).toMatchObject({ messageCount: 2000, sentAt: expect.any(String) });
    const calls = emulator.batches();
    expect(calls.flatMap((batch) => batch.messages.map((message) => message.tos[0]))).toEqual(mixed().map((message) => message.tos[0]));
    for (const call of calls) {
      expect(Buffer.byteLength(JSON.stringify({ stream: "transactional", messages: call.messages }))).toBeLessThanOrEqual(CALL_MAX_BYTES);
    }
    expect(calls.length).toBeGreaterThan(2);
  });
});
