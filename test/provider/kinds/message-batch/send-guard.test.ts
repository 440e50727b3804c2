/**
 * messaging:maxMessagesPerUpdate: the batches of one deployment together, each counted once whatever says it (check, diff, the
 * send), refused past the limit with every batch and its count named and the command that raises it.
 */
import { refusalOf } from "../../../../provider/kinds/message-batch/send-guard";
import { testContext } from "../../../support/provider-context";

test("no limit set: nothing is refused", () => {
  expect(refusalOf(testContext(), "urn:a", "a", 10_000_000)).toBeUndefined();
});

test("the deployment's batches together, each once; past the limit every batch is named with its count", () => {
  const context = testContext(undefined, { maxMessagesPerUpdate: "25000" });
  expect(refusalOf(context, "urn:reminders", "reminders", 20_000)).toBeUndefined();
  // Said again (the send after preview's check): counted once.
  expect(refusalOf(context, "urn:reminders", "reminders", 20_000)).toBeUndefined();
  expect(refusalOf(context, "urn:welcome", "welcome", 10_000)).toBe(
    "this update would send 30,000 messages (reminders 20,000, welcome 10,000), more than messaging:maxMessagesPerUpdate " +
      "(or MESSAGING_MAX_MESSAGES_PER_UPDATE) allows: 25,000. welcome was not sent. If these sends are meant, raise the limit " +
      "(`pulumi config set messaging:maxMessagesPerUpdate 30000`); if not, change what is declared (a `triggers` changed " +
      "replaces a batch and sends it again)",
  );
});

test("a limit that is not a whole number is an error naming the setting", () => {
  expect(() => refusalOf(testContext(undefined, { maxMessagesPerUpdate: "10k" }), "urn:a", "a", 1)).toThrow(
    /messaging:maxMessagesPerUpdate \(or MESSAGING_MAX_MESSAGES_PER_UPDATE\): expected a whole number of messages, 1 or more, not '10k'/,
  );
});
