/**
 * A batch's file changed around a send, under the real `pulumi` CLI, by both routes (TypeScript: the dynamic provider; YAML:
 * the plugin). What is sent is what was checked, and each message goes out once:
 * - rewritten in place while the batch is sent (a job regenerating an export): no message nobody checked goes out, the state
 *   records exactly the calls the service confirmed, and the file put back finishes the batch;
 * - the same messages with their keys in another order, after a kill: the same calls, with the same bytes under the same keys,
 *   so the next `up` finishes (the service would refuse a key with another body for good);
 * - a line corrected after a kill: the calls the kill had sent are answered from the service's record, the corrected one goes
 *   out, nothing twice;
 * - a line longer than any message a call can carry: refused, naming the file and the line, and nothing is sent.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { recipientsOf } from "../support/emulator";
import { startRefusingProxy } from "../support/fake-services";
import { fileBatchRoutes, ndjson, recipient } from "../support/file-batch-routes";
import {
  describeRealEngine,
  errorsOf,
  expectOk,
  messagesOf,
  opsByName,
  output,
  resourcesNamed,
  upKilledAfterFirstCall,
  useRealEngine,
} from "../support/real-engine";

const API_KEY = "sk_test_real_file_edits_8c31";
const COUNT = 5000;

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-file-edits-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Template messages whose keys (the message's, the template's, the model's) are written in `order`. */
function templated(first: number, order: "as written" | "reversed"): string {
  const lines = Array.from({ length: COUNT }, (_, i) => {
    const model = { name: `Patient ${first + i}`, code: String(100000 + i), when: "tomorrow 09:00" };
    const template = { id: "tmpl_reminder", model };
    const message = { tos: [recipient(first + i)], template };
    const reversed = (value: object) => Object.fromEntries(Object.entries(value).reverse());
    const written =
      order === "as written" ? message : reversed({ ...message, template: reversed({ ...template, model: reversed(model) }) });
    return `${JSON.stringify(written)}\n`;
  });
  return lines.join("");
}

const bodies = (batches: ReadonlyArray<{ messages: ReadonlyArray<{ body?: string }> }>) =>
  batches.flatMap((batch) => batch.messages.map((message) => message.body ?? ""));

describeRealEngine("a batch's file changed around a send, under pulumi", () => {
  const suite = useRealEngine(API_KEY);

  describe.each(fileBatchRoutes(scratch))("$name", (route) => {
    test("rewritten in place while sent: nothing unchecked goes out, the state records what was confirmed, put back it finishes", async () => {
      const proxy = await startRefusingProxy(suite.emulator.url);
      try {
        const first = route.firstRecipient + 10_000;
        const stack = await route.stack(suite, "export.ndjson", "rewritten", suite.serviceConfig(proxy.url));
        const file = path.join(stack.projectDir, "export.ndjson");
        const original = ndjson(COUNT, first);
        fs.writeFileSync(file, original);
        // Once the service has taken the first call, the export is regenerated: its second half edited, as `cat new > file`.
        const edited = ndjson(COUNT, first, (n) =>
          n >= first + COUNT / 2 ? `Edited ${n}` : `Reminder ${n}: your appointment is tomorrow`,
        );
        let answers = 0;
        proxy.beforeAnswer = (request) => {
          if (request.path === "/v1/message_batches" && answers++ === 0) fs.writeFileSync(file, edited);
        };
        const from = suite.emulator.batches().length;

        const rewritten = await stack.up();
        proxy.beforeAnswer = undefined;
        expect(rewritten.ok).toBe(false);
        const sent = suite.emulator.batches().slice(from);
        expect(bodies(sent).filter((body) => body.startsWith("Edited"))).toEqual([]);
        const confirmed = bodies(sent).length;
        expect(confirmed).toBeGreaterThan(0);
        expect(confirmed).toBeLessThan(COUNT);
        expect(errorsOf(rewritten)).toContain(`${confirmed} of ${COUNT} messages were confirmed before sending stopped`);
        expect(errorsOf(rewritten)).toMatch(/Put the file back as it was checked and run `pulumi up`/);
        const [recorded] = resourcesNamed(await stack.exportState(), "reminders");
        expect(recorded.outputs).toMatchObject({ sentAt: null, messageCount: COUNT, batchIds: sent.map((batch) => batch.id) });

        // The way out the error gives: the file put back, `up` sends the rest.
        fs.writeFileSync(file, original);
        const finished = expectOk(await stack.up());
        expect(opsByName(finished)).toEqual({ reminders: ["update"] });
        const all = suite.emulator.batches().slice(from);
        expect(bodies(all).filter((body) => body.startsWith("Edited"))).toEqual([]);
        expect(recipientsOf(all)).toHaveLength(COUNT);
        expect(new Set(recipientsOf(all)).size).toBe(COUNT);
        expect(output(finished, "messageCount")).toBe(COUNT);
      } finally {
        await proxy.close();
      }
    });

    test("the same template messages with their keys in another order, after a kill: the next up finishes, each message once", async () => {
      const first = route.firstRecipient + 20_000;
      const stack = await route.stack(suite, "templated.ndjson", "reordered");
      const file = path.join(stack.projectDir, "templated.ndjson");
      fs.writeFileSync(file, templated(first, "as written"));
      const from = suite.emulator.batches().length;
      expect((await upKilledAfterFirstCall(stack, suite.emulator, from)).ok).toBe(false);

      fs.writeFileSync(file, templated(first, "reversed"));
      await stack.cli(["cancel", "--yes"], { allowFailure: true });
      const finished = expectOk(await stack.up());
      expect(messagesOf(finished)).toMatch(/calls were answered from the service's record/);
      const sent = recipientsOf(suite.emulator.batches().slice(from));
      expect(sent).toHaveLength(COUNT);
      expect(new Set(sent).size).toBe(COUNT);
    });

    test("a line corrected after a kill: the calls the kill sent are answered from the service's record, nothing twice", async () => {
      const first = route.firstRecipient + 30_000;
      const stack = await route.stack(suite, "corrected.ndjson", "corrected");
      const file = path.join(stack.projectDir, "corrected.ndjson");
      const typo = (n: number) => (n === first + COUNT - 1 ? `Remnder ${n}` : `Reminder ${n}: your appointment is tomorrow`);
      fs.writeFileSync(file, ndjson(COUNT, first, typo));
      const from = suite.emulator.batches().length;
      expect((await upKilledAfterFirstCall(stack, suite.emulator, from)).ok).toBe(false);
      const taken = suite.emulator.batches().length - from;

      // The last line corrected: it is in the batch's last call, which the kill (right after the first call) never reached.
      fs.writeFileSync(file, ndjson(COUNT, first));
      await stack.cli(["cancel", "--yes"], { allowFailure: true });
      const finished = expectOk(await stack.up());
      // Every call the kill let through (a call the service was still taking when the count was read among them).
      const [, answered, calls] = /(\d+) of (\d+) calls were answered from the service's record/.exec(messagesOf(finished)) ?? [];
      expect(Number(answered)).toBeGreaterThanOrEqual(taken);
      expect(Number(answered)).toBeLessThan(Number(calls));
      expect(messagesOf(finished)).toMatch(/call\(s\) were new to the service and were sent/);
      const sent = suite.emulator.batches().slice(from);
      expect(recipientsOf(sent)).toHaveLength(COUNT);
      expect(new Set(recipientsOf(sent)).size).toBe(COUNT);
      expect(bodies(sent)).toContain(`Reminder ${first + COUNT - 1}: your appointment is tomorrow`);
      expect(bodies(sent)).not.toContain(`Remnder ${first + COUNT - 1}`);
    });

    test("a line longer than any message a call can carry is refused, naming the file and the line; nothing is sent", async () => {
      const stack = await route.stack(suite, "long.ndjson", "long");
      const file = path.join(stack.projectDir, "long.ndjson");
      const descriptor = fs.openSync(file, "w");
      try {
        fs.writeSync(descriptor, ndjson(1, route.firstRecipient + 40_000));
        const block = Buffer.alloc(4 * 2 ** 20, "x");
        for (let written = 0; written <= 64 * 2 ** 20; written += block.length) fs.writeSync(descriptor, block);
      } finally {
        fs.closeSync(descriptor);
      }
      const requests = suite.emulator.requestCount();
      const refused = await stack.up();
      expect(refused.ok).toBe(false);
      expect(errorsOf(refused)).toContain(`${file}: line 2 is longer than 64 MiB`);
      expect(suite.emulator.requestCount()).toBe(requests);
    });
  });
});
