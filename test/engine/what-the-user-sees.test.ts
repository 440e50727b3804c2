/**
 * What a user sees of a send, under the real `pulumi` CLI, by both routes (TypeScript: dynamic resources in an inline program;
 * YAML: the plugin): before any call, preview says how many messages will go, in how many calls, to how many recipients, and
 * why a replacement sends again, or what is left of a part-sent batch; an unchanged batch says nothing; while `up` sends, the
 * batch's status shows its progress; once sent, one line says what went. Every line is the batch's own (the engine shows it
 * under the resource). `messaging:maxMessagesPerUpdate` stops a send that is too large at preview and at `up`, before any call.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startFirstChunkOnlyService } from "../support/fake-services";
import {
  describeRealEngine,
  errorsOf,
  expectOk,
  useRealEngine,
  type ConfigEntries,
  type OperationResult,
  type PulumiStack,
  type RealEngineSuite,
} from "../support/real-engine";

const API_KEY = "sk_test_real_user_sees_4b2e";
const COUNT = 2500;

/** A route's stack of one batch, `reminders`, of `count` messages to distinct recipients, sent again when `trigger` changes. */
interface Route {
  readonly name: string;
  stack(suite: RealEngineSuite, config?: ConfigEntries): Promise<PulumiStack>;
  declare(stack: PulumiStack, count: number, trigger: string): Promise<void>;
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-user-sees-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function yamlProgram(count: number, trigger: string, first: number): string {
  const messages = Array.from({ length: count }, (_, i) => ({
    tos: [`+2547${String(first + i).padStart(8, "0")}`],
    body: `Reminder ${i}: your appointment is tomorrow`,
  }));
  return JSON.stringify({
    name: "user-sees",
    runtime: "yaml",
    resources: {
      reminders: { type: "messaging:index:MessageBatch", properties: { stream: "transactional", messages, triggers: [trigger] } },
    },
  });
}

// Each YAML stack its own recipients, the same from one program to the next.
const firstRecipient = new WeakMap<PulumiStack, number>();
let yamlStacks = 0;
const ROUTES: Route[] = [
  {
    name: "TypeScript (dynamic provider)",
    stack: (suite, config = {}) => suite.stack("batch-stack", { config: { "batch-stack:count": "0", ...config } }),
    declare: (stack, count, trigger) => stack.setPlainConfig({ "batch-stack:count": String(count), "batch-stack:trigger": trigger }),
  },
  {
    name: "YAML (plugin)",
    stack: (suite, config = {}) => {
      const projectDir = fs.mkdtempSync(path.join(scratch, "yaml-"));
      fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), yamlProgram(1, "0", 0));
      return suite.stack(projectDir, { projectDir, plugin: true, config });
    },
    declare: async (stack, count, trigger) => {
      if (!firstRecipient.has(stack)) firstRecipient.set(stack, 500_000 + 10_000 * ++yamlStacks);
      stack.useProgram(yamlProgram(count, trigger, firstRecipient.get(stack)!));
    },
  },
];

/** The batch's own lines (the engine shows them under it): printed ones, and status lines (progress). */
function linesOf(result: OperationResult, options: { ephemeral?: boolean } = {}): string[] {
  return result.diagnostics
    .filter((diagnostic) => diagnostic.urn?.endsWith("::reminders") && (diagnostic.ephemeral === true) === (options.ephemeral === true))
    .map((diagnostic) => diagnostic.message);
}

describeRealEngine("what a user sees of a send, under pulumi", () => {
  const suite = useRealEngine(API_KEY);

  describe.each(ROUTES)("$name", (route) => {
    test("preview says what a create and a replacement will send, before any call; up shows progress and what went; unchanged says nothing", async () => {
      const stack = await route.stack(suite);
      await route.declare(stack, COUNT, "1");
      const requests = suite.emulator.requestCount();
      const preview = expectOk(await stack.preview());
      expect(linesOf(preview)).toEqual([
        expect.stringMatching(/^reminders: will send 2,500 messages \(\d+ calls\) to 2,500 recipients on transactional\b/),
      ]);
      expect(suite.emulator.requestCount()).toBe(requests);

      const up = expectOk(await stack.up());
      const sent = suite.emulator.requestCount() - requests;
      expect(linesOf(up)).toContain(`reminders: sent 2,500 messages in ${sent} calls`);
      expect(linesOf(up, { ephemeral: true })).toContainEqual(
        expect.stringMatching(new RegExp(`^sent 2,500 of 2,500 \\(${sent} of ${sent} calls\\)$`)),
      );

      expect(linesOf(expectOk(await stack.preview({ expectNoChanges: true })))).toEqual([]);

      await route.declare(stack, COUNT, "2");
      const replaced = linesOf(expectOk(await stack.preview()));
      expect(replaced).toEqual([
        expect.stringMatching(
          /^reminders: will send 2,500 messages \(\d+ calls\) to 2,500 recipients on transactional again: `triggers` changed \(a replacement\)/,
        ),
      ]);
    });

    test("a part-sent batch: preview says what is left; messaging:maxMessagesPerUpdate stops a larger send before any call, raised it passes", async () => {
      const service = await startFirstChunkOnlyService();
      try {
        const stack = await route.stack(suite, { ...suite.serviceConfig(service.url), "messaging:maxMessagesPerUpdate": "1000" });
        await route.declare(stack, COUNT, "guarded");
        // Over the limit: refused at preview and at up, and the service is never called.
        for (const refused of [await stack.preview(), await stack.up()]) {
          expect(refused.ok).toBe(false);
          expect(errorsOf(refused)).toMatch(
            /this update would send 2,500 messages \(reminders 2,500\), more than messaging:maxMessagesPerUpdate \(or MESSAGING_MAX_MESSAGES_PER_UPDATE\) allows: 1,000\. reminders was not sent\..*pulumi config set messaging:maxMessagesPerUpdate 2500/s,
          );
        }
        expect(service.recipients()).toHaveLength(0);

        await stack.setPlainConfig({ "messaging:maxMessagesPerUpdate": "2500" });
        expect((await stack.up()).ok).toBe(false);
        const taken = service.recipients().length;
        expect(taken).toBeGreaterThan(0);
        expect(linesOf(expectOk(await stack.preview()))).toEqual([
          expect.stringMatching(
            new RegExp(
              `^reminders: part-sent: 1 call of its 2,500 messages confirmed; \`pulumi up\` sends the rest, ${(COUNT - taken).toLocaleString("en-US")} messages in \\d+ calls?$`,
            ),
          ),
        ]);
        service.acceptAll();
        expectOk(await stack.up());
        expect(service.recipients()).toHaveLength(COUNT);
      } finally {
        await service.close();
      }
    });
  });
});
