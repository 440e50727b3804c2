import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type RecordedBatch, type ScriptedFault } from "../../../../emulator";
import { API_KEY, ATTEMPTS_PER_CALL, AUTH_HEADER_VALUE, CLI, recipient, ROOT, useSendTestBed } from "../../../support/send-harness";

/**
 * `messaging send` as users run it: the built CLI in a child process, against a real
 * emulator in this process. Children are spawned asynchronously — a sync spawn would block
 * the emulator's event loop. Assertions are on what the emulator recorded.
 */

const { emulator, dir, send } = useSendTestBed("messaging-send-");

interface RunOutput {
  stdout: string;
  stderr: string;
}

/**
 * Writes `count` messages as NDJSON, each to its own recipient, the file name in each body (so
 * no two files have the same content, and so the same derived keys); returns the file name.
 */
function ndjsonFile(name: string, count: number): string {
  const lines = Array.from({ length: count }, (_, i) => JSON.stringify({ tos: [recipient(i)], body: `${name}: reminder ${i}` }));
  writeFileSync(path.join(dir, name), `${lines.join("\n")}\n`);
  return name;
}

/** What the emulator has recorded so far, to compare against later. */
function mark(): { batches: number; requests: number } {
  return { batches: emulator.batches().length, requests: emulator.requestCount() };
}

function batchesSince(since: { batches: number }): RecordedBatch[] {
  return emulator.batches().slice(since.batches);
}

/** Asserts `batches` hold messages 0..count-1 of {@link ndjsonFile}, in order, each exactly once, 1,000 a call. */
function expectEachMessageOnce(batches: RecordedBatch[], count: number): void {
  const sizes = [];
  for (let left = count; left > 0; left -= 1000) sizes.push(Math.min(1000, left));
  expect(batches.map((batch) => batch.messages.length)).toEqual(sizes);
  expect(batches.every((batch) => batch.stream === "transactional")).toBe(true);
  const recipients = batches.flatMap((batch) => batch.messages.flatMap((message) => message.tos));
  expect(recipients).toEqual(Array.from({ length: count }, (_, i) => recipient(i)));
  expect(new Set(recipients).size).toBe(count);
}

describe("messaging send (built CLI against the emulator)", () => {
  it("sends 2,500 NDJSON messages in 3 calls [1000, 1000, 500], every recipient once", async () => {
    const file = ndjsonFile("reminders.ndjson", 2500);
    const before = mark();
    const run = await send(["--file", file]);
    expect(run.code).toBe(0);
    const batches = batchesSince(before);
    expectEachMessageOnce(batches, 2500);
    expect(batches.map((batch) => batch.messages[0].body)).toEqual([
      "reminders.ndjson: reminder 0",
      "reminders.ndjson: reminder 1000",
      "reminders.ndjson: reminder 2000",
    ]);
    expect(emulator.requestCount() - before.requests).toBe(3);
    // A short summary: counts, duration, rate; no batch ids (those are in --json).
    expect(run.stdout).toMatch(
      /^sent 2500 message\(s\) in 3 call\(s\) in \d+\.\d s \(\d+ msg\/s\): all 2500 message\(s\) of reminders\.ndjson are sent\n$/,
    );
    expect(run.stdout).not.toContain("msba_");
    // Not a terminal: plain progress lines, the last one at 100 %.
    expect(run.stderr).toMatch(/sent 2500\/2500 messages \(100%\), [\d,]+ msg\/s, ETA 0 s, 0 retries\n$/);
  });

  it("sends CSV and JSON files too, on the stream given", async () => {
    writeFileSync(path.join(dir, "list.csv"), `to,body\n"${recipient(1)};${recipient(2)}","Hi, you"\n`);
    writeFileSync(
      path.join(dir, "list.json"),
      JSON.stringify({ messages: [{ tos: [recipient(3)], template: { id: "tpl_1", model: { n: 1 } } }] }),
    );
    const before = mark();
    expect((await send(["--file", "list.csv", "--stream", "marketing"])).code).toBe(0);
    expect((await send(["--file", "list.json"])).code).toBe(0);
    expect(batchesSince(before).map(({ stream, messages }) => ({ stream, messages }))).toEqual([
      { stream: "marketing", messages: [{ tos: [recipient(1), recipient(2)], body: "Hi, you" }] },
      { stream: "transactional", messages: [{ tos: [recipient(3)], template: { id: "tpl_1", model: { n: 1 } } }] },
    ]);
  });

  it("--dry-run validates, prints the counts, exits 0 and sends nothing", async () => {
    const file = ndjsonFile("dry.ndjson", 2500);
    const before = mark();
    const run = await send(["--file", file, "--dry-run"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("2500 valid message(s); 2500 to send in 3 call(s) on stream 'transactional'");
    expect(emulator.requestCount()).toBe(before.requests);
    expect(batchesSince(before)).toEqual([]);
  });

  it("--max-messages (or MESSAGING_MAX_MESSAGES_PER_UPDATE) refuses a larger send before any call, naming the counts; raised, it sends", async () => {
    const file = ndjsonFile("guarded.ndjson", 1200);
    const before = mark();
    const refused = await send(["--file", file, "--max-messages", "1000"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "this run would send 1200 message(s) from guarded.ndjson, more than --max-messages (or MESSAGING_MAX_MESSAGES_PER_UPDATE) allows: 1000.",
    );
    expect(refused.stderr).toMatch(/Nothing was sent/);
    const fromEnv = await send(["--file", file], { MESSAGING_MAX_MESSAGES_PER_UPDATE: "1199" });
    expect(fromEnv.code).toBe(1);
    expect(emulator.requestCount()).toBe(before.requests);
    expect((await send(["--file", file, "--max-messages", "abc"])).stderr).toMatch(/--max-messages: expected a whole number of messages/);

    const sent = await send(["--file", file, "--max-messages", "1200"], { MESSAGING_MAX_MESSAGES_PER_UPDATE: "1" });
    expect(sent.code).toBe(0);
    expectEachMessageOnce(batchesSince(before), 1200);
  });

  it("--dry-run needs no API key", async () => {
    const run = await send(["--file", ndjsonFile("dry-nokey.ndjson", 3), "--dry-run"], {
      MESSAGING_API_KEY: undefined,
      MESSAGING_BASE_URL: undefined,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("3 valid message(s); 3 to send in 1 call(s)");
  });

  it("an invalid file: exits 1, names each line and field, sends nothing", async () => {
    const lines = [
      JSON.stringify({ tos: [recipient(0)], body: "fine" }),
      "",
      JSON.stringify({ tos: ["0712345678"], body: "local number" }),
      JSON.stringify({ tos: [recipient(1)], body: "" }),
      "{not json",
    ];
    writeFileSync(path.join(dir, "invalid.ndjson"), lines.join("\n"));
    const before = mark();
    const run = await send(["--file", "invalid.ndjson"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("invalid.ndjson");
    expect(run.stderr).toMatch(/line 3: tos\[0\]: expected an E\.164 phone number/);
    expect(run.stderr).toMatch(/line 4: body: expected non-empty message text/);
    expect(run.stderr).toMatch(/line 5: not valid JSON/);
    expect(run.stderr).toContain("nothing was sent");
    expect(run.stderr).not.toMatch(/run the same command|finish with/i);
    expect(emulator.requestCount()).toBe(before.requests);
  });

  it("a missing file: exits 1 naming it", async () => {
    const run = await send(["--file", "no-such-file.ndjson"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("no-such-file.ndjson");
    expect(run.stderr).toContain("cannot be read");
  });

  it("without MESSAGING_API_KEY: exits 2 (a setting missing) naming it, sends nothing", async () => {
    const before = mark();
    const run = await send(["--file", ndjsonFile("nokey.ndjson", 3)], { MESSAGING_API_KEY: undefined });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("MESSAGING_API_KEY");
    expect(emulator.requestCount()).toBe(before.requests);
  });

  it("--resend without MESSAGING_API_KEY: says nothing was sent, and no command to finish a send that never began", async () => {
    const run = await send(["--file", ndjsonFile("nokey-resend.ndjson", 3), "--resend"], { MESSAGING_API_KEY: undefined });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/MESSAGING_API_KEY[\s\S]*\nnothing was sent\n$/);
    expect(run.stderr).not.toContain("--send-id");
    expect(run.stderr).not.toContain("finish it with");
  });

  it.each([
    ["missing", undefined],
    ["not a URL", "not a url"],
  ])("MESSAGING_BASE_URL %s: exits 2 (a setting) naming it, without printing the key", async (_, baseUrl) => {
    const run = await send(["--file", ndjsonFile("nobase.ndjson", 3)], { MESSAGING_BASE_URL: baseUrl });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("MESSAGING_BASE_URL");
  });

  it("a wrong key: exits 1 saying what to fix, with no resume hint and without printing that key", async () => {
    const wrongKey = "sk_test_wrong_4c8e1a6f0b2d_never_printed";
    const before = mark();
    const run = await send(["--file", ndjsonFile("wrongkey.ndjson", 3)], { MESSAGING_API_KEY: wrongKey });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("HTTP 401");
    expect(run.stderr).toContain("Fix: the service did not accept the API key: set MESSAGING_API_KEY to a valid key");
    expect(run.stderr).not.toMatch(/resume|run the same command|finish with|messaging send --file/i);
    expect(`${run.stdout}${run.stderr}`).not.toContain(wrongKey);
    expect(`${run.stdout}${run.stderr}`).not.toContain(Buffer.from(`${wrongKey}:`).toString("base64"));
    expect(batchesSince(before)).toEqual([]);
  });

  it.each([
    [[]],
    [["--file"]],
    [["--bogus"]],
    [["--file", "x.ndjson", "extra"]],
    [["--file", "x.ndjson", "--dry-run=yes"]],
    [["--file", "x.ndjson", "--stream", ""]],
    [["--file", "x.ndjson", "--idempotency-key-prefix", "has space"]],
    [["--file", "x.txt"]],
    [["--file", "x.ndjson", "--format", "xml"]],
    [["--file", "x.ndjson", "--batch-size", "1001"]],
    [["--file", "x.ndjson", "--concurrency", "0"]],
    [["--file", "x.ndjson", "--resend", "--send-id", "abc"]],
  ])("bad arguments %p: exits 2 with usage, sends nothing", async (args) => {
    const before = mark();
    const run = await send(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("usage: messaging send --file FILE");
    expect(emulator.requestCount()).toBe(before.requests);
  });

  it("under injected faults: every message recorded exactly once, every faulted attempt retried", async () => {
    // Call 1 meets a 500 and a dropped answer after processing (a retry without the same
    // idempotency key would duplicate), call 2 a reset and a 429, call 3 nothing.
    const script: ScriptedFault[] = [
      "internal_error",
      "drop_after_processing",
      "none",
      "reset_before_processing",
      "rate_limited",
      "none",
      "none",
    ];
    const file = ndjsonFile("faults.ndjson", 2500);
    emulator.setFaults({ script });
    const before = mark();
    const run = await send(["--file", file]);
    expect(run.code).toBe(0);
    expectEachMessageOnce(batchesSince(before), 2500);
    expect(emulator.faultLog()).toEqual(script);
    expect(emulator.requestCount() - before.requests).toBe(script.length);
  });

  it("stopped part-way: prints the command to finish; running it completes without duplicates", async () => {
    // Call 1 succeeds at once and call 2 is processed, then its connection dropped, on every
    // attempt: the run stops after the service accepted 2 batches but confirmed only 1.

    // A name a shell would split: the printed command must quote it.
    const file = ndjsonFile("resume list.ndjson", 2500);
    emulator.setFaults({ script: ["none", ...Array<ScriptedFault>(ATTEMPTS_PER_CALL).fill("drop_after_processing")] });
    const before = mark();
    const first = await send(["--file", file]);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain("1000 of 2500 message(s) of the file are sent");
    expect(batchesSince(before).map((batch) => batch.messages.length)).toEqual([1000, 1000]);

    const finish =
      /Run the same command again to send the rest \(nothing is sent twice\):\n {2}((?:npx -p pulumi-messaging )?messaging send .*)$/m.exec(
        first.stderr,
      )?.[1];
    expect(finish).toBe("npx -p pulumi-messaging messaging send --file 'resume list.ndjson' --stream transactional");
    emulator.setFaults({ failureRate: 0 });
    // Run exactly as printed, through a shell.
    const second = await send(finish!);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(
      "continuing: 1000 of 2500 message(s) were sent by earlier runs, 1000 were left in flight (finished first, under their keys)",
    );

    // Call 2 was answered from the service's record (same key), call 3 sent: each message once.
    expectEachMessageOnce(batchesSince(before), 2500);
    expect(second.stdout).toContain("sent 500 message(s) in 1 call(s)");
  });

  it("the same command again after a complete send sends nothing; --resend sends the file again", async () => {
    const file = ndjsonFile("again.ndjson", 1500);
    const before = mark();
    expect((await send(["--file", file])).code).toBe(0);
    const requests = emulator.requestCount();

    const again = await send(["--file", file]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("already sent: all 1500 message(s) of again.ndjson were sent by earlier runs");
    expect(again.stdout).toContain("add --resend");
    expect(emulator.requestCount()).toBe(requests);

    const resend = await send(["--file", file, "--resend", "--json"]);
    expect(resend.code).toBe(0);
    const outcome = JSON.parse(resend.stdout);
    expect(outcome).toEqual(
      expect.objectContaining({ status: "sent", sentMessages: 1500, sendId: expect.stringMatching(/^[0-9a-f]{12}$/) }),
    );
    const batches = batchesSince(before);
    expect(batches).toHaveLength(4);
    expect(outcome.batchIds).toEqual(batches.slice(2).map((batch) => batch.id));
  });

  it("--json: one object with counts, rate and the batch ids on stdout", async () => {
    const before = mark();
    const run = await send(["--file", ndjsonFile("json.ndjson", 1200), "--json"]);
    expect(run.code).toBe(0);
    const outcome = JSON.parse(run.stdout);
    expect(outcome).toEqual(
      expect.objectContaining({
        status: "sent",
        file: "json.ndjson",
        stream: "transactional",
        messages: 1200,
        calls: 2,
        sentMessages: 1200,
        skippedMessages: 0,
        durationMs: expect.any(Number),
        messagesPerSecond: expect.any(Number),
        keyPrefix: "ms3",
      }),
    );
    expect(outcome.batchIds).toEqual(batchesSince(before).map((batch) => batch.id));
  });

  it("on a terminal: a progress bar with rate, ETA and the retries it met", async () => {
    // The first call fails once (HTTP 500), then every call succeeds.
    const file = ndjsonFile("terminal.ndjson", 2500);
    emulator.setFaults({ script: ["internal_error"] });
    const before = mark();
    // `script` gives the command a pseudo-terminal; its output is what the terminal showed.
    const command = `'${process.execPath}' '${CLI}' send --file ${file}`;
    const run = await send(`script -qefc ${JSON.stringify(command)} /dev/null`);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /sending \[[=-]+\] 100% \| 2,500\/2,500 msgs \| [\d,]+ msg\/s \| ETA \d+ s \| 1 retry, last: HTTP 500, \d+ s wait/,
    );
    expectEachMessageOnce(batchesSince(before), 2500);
  });

  it("--help lists options, environment variables, file formats and exit codes; --version prints the version", async () => {
    const help = await send(["--help"]);
    expect(help.code).toBe(0);
    for (const text of [
      "--file FILE",
      "--resend",
      "--json",
      "MESSAGING_API_KEY",
      "MESSAGING_STATE_DIR",
      "NDJSON",
      "CSV",
      "exit codes",
      "130",
    ]) {
      expect(help.stdout).toContain(text);
    }
    const version = await send("messaging --version");
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).version);
  });
});

describe("messaging send interrupted, then run again (built CLI against the emulator)", () => {
  const COUNT = 20_000;

  /** Starts `send` with batches of 100, and resolves once the emulator has recorded `after` batches of it. */
  function startSend(
    file: string,
    after: number,
  ): { child: ChildProcess; output: () => RunOutput; exited: Promise<number | null>; started: Promise<void> } {
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      MESSAGING_API_KEY: API_KEY,
      MESSAGING_BASE_URL: emulator.url,
      MESSAGING_STATE_DIR: path.join(dir, "state"),
    };
    const child = spawn(process.execPath, [CLI, "send", "--file", file, "--batch-size", "100"], {
      cwd: dir,
      env: childEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    const baseline = emulator.batches().length;
    const started = new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (emulator.batches().length - baseline >= after || child.exitCode !== null) {
          clearInterval(timer);
          resolve();
        }
      }, 2);
    });
    return { child, output: () => ({ stdout, stderr }), exited, started };
  }

  it.each([["SIGKILL"], ["SIGINT"], ["SIGTERM"]] as const)(
    "%s midway, then the same command: every message accepted exactly once",
    async (signal) => {
      const file = ndjsonFile(`interrupted-${signal}.ndjson`, COUNT);
      const before = mark();
      const run = startSend(file, 20);
      let code: number | null;
      try {
        await run.started;
        run.child.kill(signal);
        code = await run.exited;
      } finally {
        if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
        await run.exited;
      }
      const partial = batchesSince(before).reduce((n, batch) => n + batch.messages.length, 0);
      expect(partial).toBeGreaterThan(0);
      expect(partial).toBeLessThan(COUNT);
      const { stderr } = run.output();
      for (const secret of [API_KEY, AUTH_HEADER_VALUE]) expect(stderr).not.toContain(secret);

      let again: string | string[] = ["--file", file, "--batch-size", "100"];
      if (signal !== "SIGKILL") {
        expect(code).toBe(signal === "SIGINT" ? 130 : 143);
        expect(stderr).toContain(`interrupted by ${signal}`);
        expect(stderr).toMatch(/\d+ of 20000 message\(s\) of the file are sent/);
        const finish = /finish with\n {2}((?:npx -p pulumi-messaging )?messaging send .*)$/m.exec(stderr)?.[1];
        expect(finish).toBe(`npx -p pulumi-messaging messaging send --file ${file} --stream transactional --batch-size 100`);
        again = finish!;
      }
      const second = await send(again);
      expect(second.code).toBe(0);
      expect(second.stderr).toContain("continuing:");

      const batches = batchesSince(before);
      const recipients = batches.flatMap((batch) => batch.messages.flatMap((message) => message.tos));
      expect(recipients.length).toBe(COUNT);
      expect(new Set(recipients).size).toBe(COUNT);
    },
  );
});
