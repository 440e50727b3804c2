/**
 * A MessageBatch of 30,000 SMS-length messages (160 characters) through the plugin, under the
 * real CLI: a Pulumi YAML program (its messages written as a JSON flow sequence, which YAML
 * reads). Check carries the old inputs and the new (about 7 MB), above grpc-js's default
 * 4 MiB limit, which refused every preview, up and refresh once the batch was in the state,
 * and never let this batch deploy. Here: a send stopped after its first call is recorded
 * part-sent, the next up finishes it with each message once, and an unchanged up makes no call.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startFirstChunkOnlyService } from "../support/fake-services";
import { describeRealEngine, errorsOf, expectOk, opsByName, useRealEngine } from "../support/real-engine";

const API_KEY = "sk_test_real_large_6d04";
const COUNT = 30_000;

/** `count` messages of 160 characters each, to distinct recipients. */
function smsMessages(count: number): Array<{ tos: string[]; body: string }> {
  return Array.from({ length: count }, (_, i) => {
    const head = `Reminder ${i}: your appointment is tomorrow at 09:00. Reply STOP to opt out. `;
    return { tos: [`+2547${String(10000000 + i).padStart(8, "0")}`], body: head.padEnd(160, ".") };
  });
}

describeRealEngine("a 30,000-message batch through the plugin", () => {
  const suite = useRealEngine(API_KEY);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-large-"));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  test("part-sent, finished with each message once, then unchanged with no call", async () => {
    const projectDir = path.join(scratch, "project");
    fs.mkdirSync(projectDir);
    const program = {
      name: "large-batch",
      runtime: "yaml",
      resources: {
        reminders: { type: "messaging:index:MessageBatch", properties: { stream: "transactional", messages: smsMessages(COUNT) } },
      },
      outputs: { messageCount: "${reminders.messageCount}" },
    };
    fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), JSON.stringify(program));
    const service = await startFirstChunkOnlyService();
    try {
      const stack = await suite.stack("large-batch", {
        projectDir,
        plugin: true,
        config: suite.serviceConfig(service.url),
        service: false,
      });

      const first = await stack.up();
      expect(first.ok).toBe(false);
      expect(errorsOf(first)).toMatch(
        /\d+ of 30000 messages were confirmed before sending stopped.*Run `pulumi up` again to send the rest/s,
      );

      service.acceptAll();
      expect(opsByName(expectOk(await stack.up()))).toEqual({ reminders: ["update"] });
      const recipients = service.recipients();
      expect(recipients).toHaveLength(COUNT);
      expect(new Set(recipients).size).toBe(COUNT);

      const unchanged = expectOk(await stack.up({ expectNoChanges: true }));
      expect(opsByName(unchanged)).toEqual({ reminders: ["same"] });
      expect(service.recipients()).toHaveLength(COUNT);
    } finally {
      await service.close();
    }
  });
});
