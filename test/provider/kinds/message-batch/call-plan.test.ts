/**
 * How a batch's messages become calls (`call-plan.ts`). mb3, which every new batch uses, is pinned by golden values: the service
 * remembers keys made with it. What a user relies on: an edit changes the key of the call it touches and no other, so a create
 * redone after a kill and an edit is answered from the service's record for every untouched call; the same messages in another
 * key order are the same calls with the same bytes; and a call whose messages are not the planned ones never goes out.
 */
import { createHash } from "node:crypto";
import { IdentityKey } from "../../../../client/identity-key";
import { canonicalJson } from "../../../../schemas/canonical-json";
import {
  checkedCalls,
  mb3BatchId,
  mb3Scheme,
  planCalls,
  positionScheme,
  type CallPlan,
  type CallScheme,
} from "../../../../provider/kinds/message-batch/call-plan";
import { CALL_MAX_BYTES } from "../../../../provider/kinds/message-batch/calls";
import { messagesDigest } from "../../../../provider/messages-digest";

const key = IdentityKey.fromApiKey("sk_test_golden");
const sms = (i: number, text = "Reminder") => ({
  tos: [`+2547${String(10000000 + i).padStart(8, "0")}`],
  body: `${text} ${i}: your appointment is tomorrow`,
});
const batch = (count: number) => Array.from({ length: count }, (_, i) => sms(i));
const scheme = (triggers: unknown = null, under = key) => mb3Scheme(under, "s2/identity/shop//reminders", "transactional", triggers);
const keysOf = async (messages: unknown[], using: CallScheme = scheme()) => using.keys(await planCalls(using, messages));
const sizes = (plan: CallPlan) => plan.calls.map((call) => call.count);
const changedKeys = (before: string[], after: string[]) => before.filter((k) => !after.includes(k)).length;

describe("mb3 (golden)", () => {
  test("the cut of 5,000 reminders, their first keys and the batch id: the same in every release", async () => {
    const plan = await planCalls(scheme(), batch(5000));
    expect(sizes(plan)).toEqual(GOLDEN_SIZES);
    expect(plan.digest).toBe(messagesDigest(batch(5000)));
    expect(plan.count).toBe(5000);
    expect(scheme().keys(plan).slice(0, 2)).toEqual(GOLDEN_KEYS);
    expect(mb3BatchId(key, "s2/identity/shop//reminders", "transactional", plan.digest, null)).toBe(GOLDEN_ID);
  });

  test("every call holds at most 1,000 messages and 10 MiB of JSON, and small batches are one call", async () => {
    const plan = await planCalls(scheme(), batch(20_000));
    expect(Math.max(...sizes(plan))).toBeLessThanOrEqual(1000);
    expect(sizes(plan).reduce((a, b) => a + b, 0)).toBe(20_000);
    expect(sizes(await planCalls(scheme(), batch(499)))).toEqual([499]);
    // Large bodies: cut by bytes, each body within the limit.
    const large = Array.from({ length: 1500 }, (_, i) => ({ ...sms(i), body: `${i} ${"y".repeat(11_000)}` }));
    const largePlan = await planCalls(scheme(), large);
    let offset = 0;
    for (const size of sizes(largePlan)) {
      const body = JSON.stringify({ stream: "transactional", messages: large.slice(offset, offset + size) });
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(CALL_MAX_BYTES);
      offset += size;
    }
    expect(largePlan.calls.length).toBeGreaterThan(1);
  });
});

describe("an edit changes the key of the call it touches, and no other", () => {
  const original = batch(30_000);
  test.each([
    ["a message edited in place", (m: unknown[]) => m.splice(15_000, 1, sms(15_000, "Edited"))],
    ["a line inserted near the start", (m: unknown[]) => m.splice(100, 0, sms(99_999))],
    ["a line removed in the middle", (m: unknown[]) => m.splice(12_345, 1)],
    ["a line appended", (m: unknown[]) => m.push(sms(99_998))],
  ])("%s", async (_case, edit) => {
    const edited = original.slice();
    edit(edited);
    const before = await keysOf(original);
    const after = await keysOf(edited);
    expect(before.length).toBeGreaterThan(30);
    expect(changedKeys(before, after)).toBe(1);
  });

  test("by position (batches of earlier releases), by contrast, a line inserted near the start moves every call", async () => {
    const edited = original.slice();
    edited.splice(100, 0, sms(99_999));
    const position = positionScheme("mb2-x", "transactional");
    const before = (await planCalls(position, original)).calls.map((call) => call.digest);
    const after = (await planCalls(position, edited)).calls.map((call) => call.digest);
    expect(changedKeys(before, after)).toBe(30);
  });
});

test("the same messages in another key order, inline or read from any format, are the same calls: same keys, same bytes", async () => {
  const messages = [{ tos: ["+254700000001"], template: { id: "t_1", model: { name: "Amina", code: "12", Zeta: { b: 1, A: 2 } } } }];
  const reordered = [{ template: { model: { Zeta: { A: 2, b: 1 }, code: "12", name: "Amina" }, id: "t_1" }, tos: ["+254700000001"] }];
  expect(await keysOf(reordered)).toEqual(await keysOf(messages));
  const wire = async (source: unknown[]) => {
    const plan = await planCalls(scheme(), source);
    const calls = [];
    for await (const call of checkedCalls(
      plan,
      source,
      (_m, text) => text,
      () => new Error("changed"),
    ))
      calls.push(call.items);
    return calls;
  };
  expect(await wire(reordered)).toEqual(await wire(messages));
  expect((await wire(messages))[0]).toEqual([canonicalJson(messages[0])]);
});

test("two calls of the same messages are two calls; another scope, stream, trigger or API key gives other keys", async () => {
  const same = Array.from({ length: 2000 }, () => sms(1));
  const keys = await keysOf(same);
  expect(keys).toHaveLength(2);
  expect(new Set(keys).size).toBe(2);
  const base = await keysOf(batch(10));
  const others = [
    await keysOf(batch(10), mb3Scheme(key, "s2/identity/shop//other", "transactional", null)),
    await keysOf(batch(10), mb3Scheme(key, "s2/identity/shop//reminders", "marketing", null)),
    await keysOf(batch(10), scheme(["2"])),
    await keysOf(batch(10), scheme(null, IdentityKey.fromApiKey("sk_test_rotated"))),
  ];
  expect(new Set([...base, ...others.flat()]).size).toBe(5);
});

describe("checkedCalls: what is sent is what was planned", () => {
  const collect = async (plan: CallPlan, source: unknown[]) => {
    const sent: number[] = [];
    try {
      for await (const call of checkedCalls(
        plan,
        source,
        (m) => m,
        (index) => new Error(`call ${index} changed`),
      ))
        sent.push(call.index);
      return { sent };
    } catch (error) {
      return { sent, error: (error as Error).message };
    }
  };

  test("a message changed after planning stops the send at its call: the calls before it go, it and the rest do not", async () => {
    const original = batch(5000);
    const plan = await planCalls(scheme(), original);
    const rewritten = original.slice();
    const [first, second] = plan.calls;
    rewritten[first.count + second.count + 3] = sms(1, "Rewritten");
    expect(await collect(plan, rewritten)).toEqual({ sent: [0, 1], error: "call 2 changed" });
    expect(await collect(plan, original)).toEqual({ sent: plan.calls.map((_c, i) => i) });
  });

  test("fewer messages than planned stop the send at the first short call; extra ones after the plan are never read", async () => {
    const original = batch(3000);
    const plan = await planCalls(scheme(), original);
    expect((await collect(plan, original.slice(0, 2500))).error).toMatch(/changed/);
    expect(await collect(plan, [...original, sms(7)])).toEqual({ sent: plan.calls.map((_c, i) => i) });
  });

  test("each call's digest is the SHA-256 of its messages' canonical JSON as an array", async () => {
    const messages = batch(3);
    const plan = await planCalls(scheme(), messages);
    const expected = createHash("sha256")
      .update(`[${messages.map((m) => canonicalJson(m)).join(",")}]`)
      .digest("hex");
    expect(plan.calls).toEqual([{ count: 3, digest: expected }]);
  });
});

const GOLDEN_SIZES = [580, 592, 1000, 1000, 698, 600, 530];
const GOLDEN_KEYS = ["mc3-4591e656a65a102713a093dc1140084f", "mc3-92675af43e215688fcc8b863fbac9ab3"];
const GOLDEN_ID = "mb3-8bf061270bb9b4a3236951cd6388fde8";
