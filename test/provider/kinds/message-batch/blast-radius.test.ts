/**
 * What preview says a batch will send: its messages, its calls (the very calls the send makes), its distinct recipients (exact
 * up to 100,000, then estimated in bounded memory, and said to be), and the line a user reads.
 */
import { IdentityKey } from "../../../../client/identity-key";
import {
  describeSize,
  EXACT_RECIPIENTS,
  progressLine,
  RecipientCount,
  sizeOfMessages,
} from "../../../../provider/kinds/message-batch/blast-radius";
import { mb3Scheme, planCalls } from "../../../../provider/kinds/message-batch/call-plan";

const sms = (i: number, to = i) => ({
  tos: [`+2547${String(10000000 + to).padStart(8, "0")}`],
  body: `Reminder ${i}: your appointment is tomorrow`,
});

test("a batch's size: its messages, the calls the send will make, its distinct recipients", async () => {
  // 3,000 messages to 2,400 numbers, and a message to two numbers.
  const messages = [...Array.from({ length: 3000 }, (_, i) => sms(i, i % 2400)), { tos: ["+254700000001", "+254700000002"], body: "Both" }];
  const size = sizeOfMessages("transactional", messages);
  const plan = await planCalls(mb3Scheme(IdentityKey.fromApiKey("any"), "scope", "transactional", null), messages);
  expect(size).toEqual({ messages: 3001, calls: plan.calls.length, recipients: 2402, recipientsExact: true });
  expect(describeSize(size, "transactional")).toBe(`3,001 messages (${plan.calls.length} calls) to 2,402 recipients on transactional`);
  expect(describeSize({ messages: 1, calls: 1, recipients: 1, recipientsExact: true }, "marketing")).toBe(
    "1 message (1 call) to 1 recipient on marketing",
  );
  // A file read before calls and recipients were recorded.
  expect(describeSize({ messages: 30_000, recipientsExact: true }, "transactional")).toBe("30,000 messages on transactional");
});

test("recipients past 100,000 are estimated within 2%, in bounded memory, and said to be", () => {
  const count = new RecipientCount();
  for (let i = 0; i < EXACT_RECIPIENTS; i++) count.add(`+2547${String(i).padStart(8, "0")}`);
  expect(count).toMatchObject({ exact: true, count: EXACT_RECIPIENTS });
  for (let pass = 0; pass < 2; pass++) for (let i = 0; i < 400_000; i++) count.add(`+2547${String(i).padStart(8, "0")}`);
  expect(count.exact).toBe(false);
  expect(Math.abs(count.count - 400_000) / 400_000).toBeLessThan(0.02);
  expect(describeSize({ messages: 800_000, calls: 1100, recipients: count.count, recipientsExact: false }, "transactional")).toMatch(
    /^800,000 messages \(1,100 calls\) to about [\d,]+ recipients \(estimated\) on transactional$/,
  );
});

test("the progress line", () => {
  expect(progressLine(12_000, 30_000, 12, 30)).toBe("sent 12,000 of 30,000 (12 of 30 calls)");
});
