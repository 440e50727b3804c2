/**
 * A Python program's `up` killed mid-send: test/fixtures/python-sms-batch (a MessageBatch of
 * 30,000 SMS-length messages through the generated SDK and the plugin, installed from its
 * archive) run as an Automation API inline program, and SIGKILLed, every process of the run at
 * once (the Python process, `pulumi`, the plugin: the stack driver marks each run's processes),
 * right after the k-th request the emulator received, between two chunks. Then finished as the
 * README says: `pulumi cancel` (the killed run's lock), `pulumi up`, and
 * `pulumi refresh --clear-pending-creates` for the create the kill left pending. Every message
 * is accepted exactly once.
 */
import * as path from "node:path";
import type { PulumiStack } from "../support/real-engine";
import { expectOk, opsByName, useRealEngine } from "../support/real-engine";
import { acceptanceOf } from "../support/emulator";
import { describeLanguage, pythonExecutable } from "./toolchains";

const API_KEY = "sk_test_real_python_kill_71b0";
const MESSAGES = 30_000;
/** Kill after this many requests of the run (30 chunks of 1,000): a first kill mid-send, a second in the resumed run. */
const KILL_AFTER_REQUESTS = [9, 21];
const DRIVER = path.join(__dirname, "python", "inline_program.py");

describeLanguage("python")("a Python up killed mid-send", () => {
  const suite = useRealEngine(API_KEY);

  /** Starts `up` and kills every process of it once the emulator has received `requests` more requests; false if it ended first. */
  async function killAfter(stack: PulumiStack, requests: number): Promise<boolean> {
    const before = suite.emulator.requestCount();
    const run = stack.start("up");
    let ended = false;
    const finished = run.done.finally(() => (ended = true));
    while (!ended) {
      if (suite.emulator.requestCount() - before >= requests) {
        run.kill();
        return !(await finished).ok;
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expectOk(await finished);
    return false;
  }

  test(`${MESSAGES} SMS-length messages, SIGKILLed after requests ${KILL_AFTER_REQUESTS.join(" and ")}, finished as the README says: 0 duplicates, 0 lost`, async () => {
    const stack = await suite.stack("python-sms-batch", {
      config: { "python-sms-batch:messages": String(MESSAGES) },
      plugin: true,
      inlineRunner: (request) => [pythonExecutable(), DRIVER, request],
    });

    const kills: string[] = [];
    for (const requests of KILL_AFTER_REQUESTS) {
      expect(await killAfter(stack, requests)).toBe(true);
      kills.push(`after request ${requests}`);
      if (kills.length === 1) {
        // The killed run's lock refuses the next run until `pulumi cancel`.
        const locked = await stack.up();
        expect(locked.ok).toBe(false);
        expect(`${locked.error}\n${locked.text}`).toMatch(/currently locked/);
      }
      await stack.cli(["cancel", "--yes"]);
    }
    expect(suite.emulator.batches().length).toBeGreaterThan(0);
    expect(suite.emulator.batches().length).toBeLessThan(MESSAGES / 1000);

    // Finish: `up`, then `refresh --clear-pending-creates` for the pending create it leaves.
    expect(opsByName(expectOk(await stack.up()))).toEqual({ sms: ["create"] });
    expect(((await stack.exportState()).deployment.pending_operations ?? []).length).toBeGreaterThan(0);
    expectOk(await stack.refresh({ clearPendingCreates: true }));
    const before = suite.emulator.requestCount();
    expect(opsByName(expectOk(await stack.up({ expectNoChanges: true })))).toEqual({ sms: ["same"] });
    expect(suite.emulator.requestCount()).toBe(before);
    expect((await stack.exportState()).deployment.pending_operations ?? []).toEqual([]);

    const expected = Array.from({ length: MESSAGES }, (_, i) => `+2547${10_000_000 + i}`);
    const { accepted, duplicates, lost } = acceptanceOf(suite.emulator.batches(), expected);
    process.stdout.write(
      `python kill: ${kills.length} kills (${kills.join("; ")}), ${suite.emulator.batches().length} batches, ` +
        `${accepted} messages accepted: ${duplicates} duplicates, ${lost} lost\n`,
    );
    expect({ duplicates, lost }).toEqual({ duplicates: 0, lost: 0 });
    expect(accepted).toBe(MESSAGES);
    expect(suite.emulator.batches().every((batch) => batch.messages.every((message) => message.body?.length === 160))).toBe(true);
  });
});
