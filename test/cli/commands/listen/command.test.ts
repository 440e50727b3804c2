/** messaging listen, in-process, against a real emulator and receivers on 127.0.0.1 port 0. */
import { runEndpointsCommand } from "../../../../cli/commands/endpoints/command";
import { listenLine, runListenCommand } from "../../../../cli/commands/listen/command";
import { startEmulator, type Emulator } from "../../../../emulator";
import { call, startReceiver } from "../../../support/emulator";
import { startRefusingProxy } from "../../../support/fake-services";
import { CapturedOutput } from "../../../support/cli-output";

let emulator: Emulator;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  emulator = await startEmulator({ apiKey: "sk_test_listen", deliveryRetrySchedule: [0.05] });
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await emulator?.close();
});

function env(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return { MESSAGING_BASE_URL: emulator.url, MESSAGING_API_KEY: "sk_test_listen", ...extra };
}

/** Starts listen; `stop()` ends it and resolves to its exit code. */
function listen(argv: string[], environment = env()) {
  const output = new CapturedOutput();
  const controller = new AbortController();
  const done = runListenCommand(argv, environment, { ...output.io, stop: controller.signal });
  const stop = async () => {
    controller.abort();
    return done;
  };
  closers.push(async () => void (await stop()));
  return { output, done, stop };
}

describe("messaging listen", () => {
  it("creates an endpoint for the URL, prints its id and the export line (secret masked), then every attempt live", async () => {
    const receiver = await startReceiver((index) => (index === 0 ? 503 : 204));
    closers.push(() => receiver.close());
    const url = `${receiver.url}/webhooks`;
    const run = listen(["--forward-to", url]);
    await run.output.until(/^ready: /m);

    const endpoint = emulator.endpoints().find((candidate) => candidate.url === url)!;
    expect(endpoint.events).toEqual(["identity.verification.created", "payment.succeeded"]);
    expect(run.output.stdout).toContain(
      `created endpoint ${endpoint.id}: identity.verification.created, payment.succeeded (basic) → ${url}`,
    );
    expect(run.output.stdout).toContain(
      `export MESSAGING_WEBHOOK_SECRET="$(npx -p pulumi-messaging messaging endpoints secret ${endpoint.id})"`,
    );
    // Run here by jest, not by a `messaging` on PATH: what to type is `npx -p pulumi-messaging messaging` (cli/program-name.ts).
    expect(run.output.stdout).toMatch(
      /^ready: forwarding deliveries \(try: npx -p pulumi-messaging messaging trigger payment\.succeeded\); Ctrl-C to stop$/m,
    );
    expect(run.output.stdout).toContain("signing secret: whsec_************");
    expect(run.output.stdout).not.toContain(endpoint.secret);

    const emitted = await call(emulator, "/_emulator/events", { json: { type: "payment.succeeded", data: { id: "pay_listen" } } });
    const eventId = emitted.headers["x-emulator-event-id"];
    await run.output.until(new RegExp(`${eventId}  payment\\.succeeded  attempt 2  → 204`));
    expect(run.output.stdout).toMatch(new RegExp(`${eventId}  payment\\.succeeded  attempt 1  → 503  \\d+ ms  HTTP 503: ok, retry at `)); // with what the receiver answered
    expect(await run.stop()).toBe(0);
    expect(run.output.stdout).toMatch(/stopped\n$/);
    expect(run.output.stderr).toBe("");

    // The export line works: the secret subcommand prints exactly the endpoint's secret.
    const secret = new CapturedOutput();
    expect(await runEndpointsCommand(["secret", endpoint.id], env(), secret.io)).toBe(0);
    expect(secret.stdout).toBe(`${endpoint.secret}\n`);
  });

  it("reuses the endpoint with the same URL, events and format; --show-secret prints the secret; a failure shows why", async () => {
    const receiver = await startReceiver(204);
    const url = `${receiver.url}/gone`;
    await receiver.close(); // nothing listens there any more: connection refused
    const first = listen(["--forward-to", url, "--events", "payment.succeeded"]);
    await first.output.until(/^ready: /m);
    expect(await first.stop()).toBe(0);
    const second = listen(["--forward-to", url, "--events", "payment.succeeded", "--show-secret"]);
    await second.output.until(/^ready: /m);
    const endpoint = emulator.endpoints().filter((candidate) => candidate.url === url);
    expect(endpoint).toHaveLength(1);
    expect(second.output.stdout).toContain(`reusing endpoint ${endpoint[0].id}`);
    expect(second.output.stdout).toContain(`export MESSAGING_WEBHOOK_SECRET=${endpoint[0].secret}`);

    await call(emulator, "/_emulator/events", { json: { type: "payment.succeeded" } });
    await second.output.until(/attempt 2 {2}→ no answer .*no more retries/);
    expect(second.output.stdout).toMatch(/attempt 1 {2}→ no answer {2}\d+ ms {2}.*ECONNREFUSED.*, retry at /);
    expect(await second.stop()).toBe(0);
  });

  it("asks only for the attempts recorded since its last listing (?after=), and prints each attempt once", async () => {
    const proxy = await startRefusingProxy(emulator.url);
    closers.push(() => proxy.close());
    const listings: number[] = [];
    proxy.alterAnswer = (answer, path) => {
      const after = /^\/_emulator\/deliveries\?after=(\d+)$/.exec(path);
      if (after) listings.push(Number(after[1]));
      return answer;
    };
    const receiver = await startReceiver(204);
    closers.push(() => receiver.close());
    const url = `${receiver.url}/cursor`;
    const run = listen(["--forward-to", url, "--events", "payment.succeeded"], env({ MESSAGING_BASE_URL: proxy.url }));
    await run.output.until(/^ready: /m);
    const recordedBefore = emulator.deliveries().length;

    const first = await call(emulator, "/_emulator/events", { json: { type: "payment.succeeded" } });
    await run.output.until(new RegExp(`${first.headers["x-emulator-event-id"]}  payment\\.succeeded  attempt 1  → 204`));
    const second = await call(emulator, "/_emulator/events", { json: { type: "payment.succeeded" } });
    await run.output.until(new RegExp(`${second.headers["x-emulator-event-id"]}  payment\\.succeeded  attempt 1  → 204`));
    expect(await run.stop()).toBe(0);

    // Every listing carried a cursor; it never went back, and it moved past the attempts it had seen.
    expect(listings.length).toBeGreaterThanOrEqual(3);
    expect(listings[0]).toBe(0);
    expect([...listings].sort((a, b) => a - b)).toEqual(listings);
    expect(listings.at(-1)).toBeGreaterThan(recordedBefore);
    expect(run.output.stdout.match(/attempt 1 {2}→ 204/g)).toHaveLength(2);
  });

  it("starts an emulator when MESSAGING_BASE_URL is not set, and closes it when stopped", async () => {
    const run = listen(["--forward-to", "http://127.0.0.1:9/webhooks"], { MESSAGING_BASE_URL: undefined });
    await run.output.until(/^ready: /m);
    const url = /export MESSAGING_BASE_URL=(\S+)/.exec(run.output.stdout)![1];
    expect((await fetch(`${url}/_emulator/endpoints`, { headers: { authorization: `Basic ${btoa("sk_test_emulator:")}` } })).status).toBe(
      200,
    );
    expect(await run.stop()).toBe(0);
    await expect(fetch(`${url}/_emulator/endpoints`)).rejects.toThrow();
  });

  it.each([
    [[], "--forward-to is required"],
    [["--forward-to", "localhost:3000"], "--forward-to must be an http(s) URL"],
    [["--forward-to", "http://localhost:3000", "--events", "payment.succeded"], "did you mean payment.succeeded?"],
    [["--forward-to", "http://localhost:3000", "--format", "cloudevent"], "did you mean cloudEvents?"],
    [["--forward", "http://localhost:3000"], "unknown option --forward (did you mean --forward-to?)"],
  ])("exits 2 for %p", async (argv, message) => {
    const output = new CapturedOutput();
    expect(await runListenCommand(argv as string[], env(), { ...output.io, stop: new AbortController().signal })).toBe(2);
    expect(output.stderr).toContain(message);
  });

  it("exits 2 for a bad MESSAGING_BASE_URL, naming it and showing the value", async () => {
    const output = new CapturedOutput();
    const code = await runListenCommand(["--forward-to", "http://localhost:3000"], env({ MESSAGING_BASE_URL: "127.0.0.1:4010" }), {
      ...output.io,
      stop: new AbortController().signal,
    });
    expect(code).toBe(2);
    expect(output.stderr).toContain("MESSAGING_BASE_URL is '127.0.0.1:4010', which is not an http(s) URL");
  });
});

describe("listenLine", () => {
  const attempt = {
    id: "dlv_1",
    attempt: 1,
    trigger: "initial",
    endpointId: "we_1",
    eventId: "evt_1",
    type: "payment.succeeded",
    url: "http://127.0.0.1:3000/webhooks",
    format: "basic",
    attemptedAt: "2026-11-23T22:00:00.000Z",
    durationMs: 3,
  } as const;

  it("shows a failed attempt's answer on one line, control characters (terminal escapes) as '?', cut at 160 characters", () => {
    const line = listenLine({
      ...attempt,
      status: 401,
      ok: false,
      outcome: "failed",
      responseBody: `{"title":\n  "no_matching_signature"}\u001b[2J\u009b31m ${"x".repeat(300)}`,
      responseBytes: 400,
    });
    const shown = `{"title": "no_matching_signature"}?[2J?31m `;
    expect(line).toBe(
      `22:00:00.000  evt_1  payment.succeeded  attempt 1  → 401  3 ms  HTTP 401: ${shown}${"x".repeat(160 - shown.length)}…, no more retries\n`,
    );
  });

  it("shows no answer for a delivered attempt, nor for one without a body", () => {
    expect(listenLine({ ...attempt, status: 204, ok: true, outcome: "delivered", responseBody: "fine", responseBytes: 4 })).toBe(
      "22:00:00.000  evt_1  payment.succeeded  attempt 1  → 204  3 ms\n",
    );
    expect(listenLine({ ...attempt, status: 500, ok: false, outcome: "failed", responseBody: "", responseBytes: 0 })).toMatch(
      / {2}HTTP 500, no more retries\n$/,
    );
  });
});
