/**
 * Kill-anywhere: `pulumi up` (every process of the run at once: the CLI, the program, the
 * provider hosts, which the CLI starts in process groups of their own) killed with SIGKILL at
 * seeded random moments while it creates endpoints and sends a
 * 30,000-message batch, then finished the way docs/message-batch.md says: `pulumi cancel` (the file
 * backend keeps the killed run's lock), `pulumi up` again, and once it has succeeded
 * `pulumi refresh --clear-pending-creates` for the creates the kill left pending.
 *
 * Kill moments are of two kinds, drawn from one seed: a time after the start (anywhere: the
 * program starting, endpoints being created, chunks being sent, the state being written), and
 * right after the k-th request the emulator received from this run (between two chunks).
 * A run that ends before its moment starts a new round (new endpoints, a new batch), so every
 * run has work. Afterwards every message of every round was accepted exactly once and every
 * endpoint was made once.
 */
import { mulberry32 } from "../../emulator/faults";
import { describeRealEngine, expectOk, useRealEngine, type PulumiStack, type RunningOperation } from "../support/real-engine";
import { acceptanceOf } from "../support/emulator";

const API_KEY = "sk_test_real_kill_5d1a";
const KILLS = 20;
const ENDPOINTS = 4;
const MESSAGES = 30_000;
const CHUNKS = MESSAGES / 1000;
const SEED = 20261126;

/** How one attempt ended. */
type Outcome = { killed: true; moment: string } | { killed: false; ms: number };

describeRealEngine("kill-anywhere under pulumi", () => {
  const suite = useRealEngine(API_KEY);

  /** Runs one `up`, killing it at the moment `draw` picks, unless it ends first. */
  async function attempt(stack: PulumiStack, draw: () => number, windowMs: number): Promise<Outcome> {
    const started = Date.now();
    const requestsBefore = suite.emulator.requestCount();
    const byRequest = draw() < 0.5;
    const afterMs = Math.floor(draw() * windowMs);
    const afterRequests = 1 + Math.floor(draw() * (ENDPOINTS + CHUNKS));
    const moment = byRequest ? `after request ${afterRequests}` : `at ${afterMs} ms`;
    const run: RunningOperation = stack.start("up");
    let ended = false;
    const finished = run.done.finally(() => (ended = true));
    while (!ended) {
      const due = byRequest ? suite.emulator.requestCount() - requestsBefore >= afterRequests : Date.now() - started >= afterMs;
      if (due) {
        run.kill();
        const result = await finished;
        if (result.ok) return { killed: false, ms: Date.now() - started };
        return { killed: true, moment };
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const result = await finished;
    expectOk(result);
    return { killed: false, ms: Date.now() - started };
  }

  test(`${KILLS} kills while creating endpoints and sending ${MESSAGES} messages: every message accepted once, every endpoint made once`, async () => {
    const stack = await suite.stack("kill-stack", {
      config: { "kill-stack:round": "0", "kill-stack:endpoints": String(ENDPOINTS), "kill-stack:messages": String(MESSAGES) },
    });
    const draw = mulberry32(SEED);
    const moments: string[] = [];
    let lockShown = false;
    let round = 0;
    let windowMs = 12_000;
    while (moments.length < KILLS) {
      const outcome = await attempt(stack, draw, windowMs);
      if (outcome.killed) {
        moments.push(outcome.moment);
        if (!lockShown) {
          // As docs/message-batch.md says: the killed run's lock refuses the next run until `pulumi cancel`.
          // A run killed before it took the lock (a slow start on a busy machine) left none: that up then
          // does the round's work, and the next kill shows the lock.
          const next = await stack.up();
          if (!next.ok) {
            expect(`${next.error}\n${next.text}`).toMatch(/currently locked/);
            lockShown = true;
          }
        }
        // A run killed before it took the lock left none to cancel.
        await stack.cli(["cancel", "--yes"], { allowFailure: moments.length > 1 });
      } else {
        // Done before its moment: the next run gets new work, and the window this run's length.
        windowMs = Math.max(2_000, Math.ceil(outcome.ms * 1.1));
        round += 1;
        await stack.setConfig("kill-stack:round", String(round));
      }
    }
    expect(lockShown).toBe(true);
    // Finish as docs/message-batch.md says. A successful `up` leaves the killed runs' pending creates in the
    // state; only `refresh --clear-pending-creates` clears them.
    expectOk(await stack.up());
    expect(((await stack.exportState()).deployment.pending_operations ?? []).length).toBeGreaterThan(0);
    expectOk(await stack.refresh({ clearPendingCreates: true }));
    const before = suite.emulator.requestCount();
    expectOk(await stack.up({ expectNoChanges: true }));
    expect(suite.emulator.requestCount()).toBe(before);
    expect((await stack.exportState()).deployment.pending_operations ?? []).toEqual([]);

    // Every message of every round, accepted once.
    const expected = Array.from({ length: round + 1 }, (_, r) =>
      Array.from({ length: MESSAGES }, (_, i) => `+2547${10_000_000 + r * 100_000 + i}`),
    ).flat();
    const { accepted, duplicates, lost } = acceptanceOf(suite.emulator.batches(), expected);
    // Every endpoint of every round, made once.
    const made = new Map<string, number>();
    for (const endpoint of suite.emulator.endpoints()) made.set(endpoint.url, (made.get(endpoint.url) ?? 0) + 1);
    const endpointsTwice = [...made.values()].filter((count) => count > 1).length;
    const endpointsLost = (round + 1) * ENDPOINTS - made.size;

    process.stdout.write(
      `kill-anywhere: ${moments.length} kills (${moments.join("; ")}), ${round + 1} rounds, ` +
        `${accepted} messages accepted: ${duplicates} duplicates, ${lost} lost; ` +
        `${made.size} endpoints: ${endpointsTwice} made twice, ${endpointsLost} lost\n`,
    );
    expect({ duplicates, lost, endpointsTwice, endpointsLost }).toEqual({ duplicates: 0, lost: 0, endpointsTwice: 0, endpointsLost: 0 });
    expect(accepted).toBe(expected.length);
  });
});
