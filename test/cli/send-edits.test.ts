import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { MessagingClient } from "../../client";
import { IdentityKey } from "../../client/identity-key";
import { messageIdentity } from "../../message-file/identity";
import { startEmulator, type ScriptedFault } from "../../emulator";
import { API_KEY, ATTEMPTS_PER_CALL, CLI, recipient, runSend, useSendTestBed } from "../support/send-harness";

/**
 * `messaging send` run again after the user edited the file: after a run killed in the middle
 * of a call, and after a finished run. Every assertion counts what the emulator accepted, line
 * by line (each line's body is unique).
 *
 * The killed run is made the same way every time: 30 lines in calls of 10; call 1 is accepted,
 * call 2 is processed by the emulator but its connection dropped on every attempt (so the
 * service has it and the command does not know), and the command is then killed with SIGKILL
 * while it waits to retry. Call 3 was never sent.
 */

const { emulator, dir, send } = useSendTestBed("messaging-send-edits-");

/** Makes the in-flight record of file `name`'s call look sent `hours` ago; returns that time. */
function ageInFlightRecord(name: string, hours: number): string {
  const state = path.join(dir, "state");
  // The state directory is shared by this file's tests: take the record of this file's call.
  const [record] = readdirSync(state, { recursive: true, encoding: "utf8" }).filter(
    (entry) => entry.includes("in-flight") && entry.endsWith(".json") && readFileSync(path.join(state, entry), "utf8").includes(name),
  );
  const call = JSON.parse(readFileSync(path.join(state, record), "utf8"));
  const sentAt = new Date(Date.now() - hours * 60 * 60 * 1000).toISOString();
  writeFileSync(path.join(state, record), JSON.stringify({ ...call, startedAt: sentAt }));
  return sentAt;
}

/** The journal of file `name`'s send. */
function journalOf(name: string): string {
  const state = path.join(dir, "state");
  const [journal] = readdirSync(state, { recursive: true, encoding: "utf8" }).filter(
    (entry) => entry.endsWith("journal.ndjson") && readFileSync(path.join(state, entry), "utf8").split("\n")[0].includes(name),
  );
  return path.join(state, journal);
}

/** Line `i` (from 0) of file `name`, as text. */
function line(name: string, i: number, edit = ""): string {
  return JSON.stringify({ tos: [recipient(i)], body: `${name}: line ${i + 1}${edit}` });
}

/** Writes `lines` to `name` (NDJSON); returns the name. */
function write(name: string, lines: string[]): string {
  writeFileSync(path.join(dir, name), `${lines.join("\n")}\n`);
  return name;
}

function lines(name: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => line(name, i));
}

/** How many times the emulator accepted each message body, over all its batches. */
function accepted(service = emulator): Map<string, number> {
  const counts = new Map<string, number>();
  for (const batch of service.batches()) {
    for (const message of batch.messages) counts.set(message.body!, (counts.get(message.body!) ?? 0) + 1);
  }
  return counts;
}

/** Asserts each of `file`'s `lines` was accepted exactly `times` times. */
function expectEachAccepted(file: string[], times = 1, service = emulator): void {
  const counts = accepted(service);
  const body = (text: string) => (JSON.parse(text) as { body: string }).body;
  expect(file.map((text) => [body(text), counts.get(body(text)) ?? 0])).toEqual(file.map((text) => [body(text), times]));
}

const BATCH = ["--batch-size", "10"];

/**
 * Runs `send --file name ...args` so that it is killed (SIGKILL) while call 2 is in flight,
 * after the emulator processed it; resolves with what the command printed. `service` is the
 * emulator, reached at `baseUrl` (the emulator itself, or a proxy to it).
 */
async function killedRun(name: string, args: string[] = [], service = emulator, baseUrl = service.url): Promise<{ stderr: string }> {
  const before = service.batches().length;
  service.setFaults({ script: ["none", ...Array<ScriptedFault>(ATTEMPTS_PER_CALL).fill("drop_after_processing")] });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MESSAGING_API_KEY: API_KEY,
    MESSAGING_BASE_URL: baseUrl,
    MESSAGING_STATE_DIR: path.join(dir, "state"),
  };
  const child = spawn(process.execPath, [CLI, "send", "--file", name, ...BATCH, ...args], {
    cwd: dir,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  try {
    // Call 2 processed: the command is now waiting to retry it (every retry is dropped too).
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (service.batches().length - before >= 2) resolve();
        else if (child.exitCode !== null) reject(new Error(`the command ended before call 2 was processed:\n${stderr}`));
        else return;
        clearInterval(timer);
      }, 5);
    });
  } finally {
    child.kill("SIGKILL");
    await exited;
    service.setFaults({ failureRate: 0 });
  }
  expect(service.batches().length - before).toBe(2);
  return { stderr };
}

describe("messaging send after a run killed mid-call, the file then edited", () => {
  it("a line appended: the call in flight is finished under its key, the rest and the new line sent, each line once", async () => {
    const name = "killed-append.ndjson";
    const file = lines(name, 30);
    write(name, file);
    await killedRun(name);
    file.push(line(name, 30));
    write(name, file);

    const again = await send(["--file", name, ...BATCH]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("continuing: 10 of 31 message(s) were sent by earlier runs, 10 were left in flight");
    expectEachAccepted(file);
  });

  it("a sent line changed: nothing is sent and the line is named; --allow-changed sends the new version once", async () => {
    const name = "killed-sent.ndjson";
    const file = lines(name, 30);
    write(name, file);
    await killedRun(name);
    const original = file[4];
    file[4] = line(name, 4, " (corrected)");
    write(name, file);

    const before = emulator.batches().length;
    const refused = await send(["--file", name, ...BATCH]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("1 message(s) sent from killed-sent.ndjson earlier are no longer in it");
    expect(refused.stderr).toMatch(/^ {2}line 5 \(sent /m);
    expect(refused.stderr).toContain("add --allow-changed");
    expect(emulator.batches().length).toBe(before);

    const allowed = await send(["--file", name, ...BATCH, "--allow-changed"]);
    expect(allowed.code).toBe(0);
    expectEachAccepted([original, ...file]);

    // The change was decided once: the same command again has nothing to send and refuses nothing.
    const third = await send(["--file", name, ...BATCH]);
    expect(third.code).toBe(0);
    expect(third.stdout).toContain("already sent: all 30 message(s)");
  });

  it("an unsent line changed: only its new version goes out, with the rest, each once", async () => {
    const name = "killed-unsent.ndjson";
    const file = lines(name, 30);
    write(name, file);
    await killedRun(name);
    const original = file[24];
    file[24] = line(name, 24, " (corrected)");
    write(name, file);

    const again = await send(["--file", name, ...BATCH]);
    expect(again.code).toBe(0);
    expectEachAccepted(file);
    expectEachAccepted([original], 0);
  });

  it("a line of the call in flight changed: named as in flight; --allow-changed finishes the call as sent, then the new version", async () => {
    const name = "killed-in-flight.ndjson";
    const file = lines(name, 30);
    write(name, file);
    await killedRun(name);
    const original = file[14];
    file[14] = line(name, 14, " (corrected)");
    write(name, file);

    const refused = await send(["--file", name, ...BATCH]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^ {2}line 15 \(sent .*, in flight\)$/m);

    const allowed = await send(["--file", name, ...BATCH, "--allow-changed"]);
    expect(allowed.code).toBe(0);
    // The service had processed the call in flight: finishing it under its key sent nothing new.
    expectEachAccepted([original, ...file]);
  });
});

describe("messaging send after a finished run, the file then edited", () => {
  it("lines appended: only they go out", async () => {
    const name = "finished-append.ndjson";
    const file = lines(name, 25);
    write(name, file);
    expect((await send(["--file", name, ...BATCH])).code).toBe(0);
    file.push(...Array.from({ length: 5 }, (_, i) => line(name, 25 + i)));
    write(name, file);

    const again = await send(["--file", name, ...BATCH, "--json"]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(expect.objectContaining({ status: "sent", sentNow: 5, skippedMessages: 25, messages: 30 }));
    expectEachAccepted(file);
  });

  it("a sent line changed: refused with nothing sent, then sent once with --allow-changed", async () => {
    const name = "finished-sent.ndjson";
    const file = lines(name, 12);
    write(name, file);
    expect((await send(["--file", name, ...BATCH])).code).toBe(0);
    const original = file[7];
    file[7] = line(name, 7, " (corrected)");
    write(name, file);

    const dryRun = await send(["--file", name, ...BATCH, "--dry-run", "--json"]);
    expect(JSON.parse(dryRun.stdout)).toEqual(
      expect.objectContaining({ status: "refused", changed: [expect.objectContaining({ location: "line 8" })] }),
    );
    const refused = await send(["--file", name, ...BATCH]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^ {2}line 8 \(sent /m);
    expectEachAccepted([original, ...file.filter((_, i) => i !== 7)]);
    expectEachAccepted([file[7]], 0);

    const allowed = await send(["--file", name, ...BATCH, "--allow-changed"]);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(
      /^sent 1 message\(s\) in 1 call\(s\) .*; 11 were sent by earlier runs: all 12 message\(s\) of finished-sent\.ndjson are sent$/m,
    );
    expect(allowed.stdout).toMatch(/^1 message\(s\) sent earlier had changed or gone since \(--allow-changed\):\n {2}line 8 \(sent /m);
    expectEachAccepted([original, ...file]);
  });

  it("a line listed twice is two messages: both go out, and a re-run sends neither again", async () => {
    const name = "finished-twice.ndjson";
    const file = [line(name, 0), line(name, 1), line(name, 0)];
    write(name, file);
    expect((await send(["--file", name])).code).toBe(0);
    expect((await send(["--file", name])).stdout).toContain("already sent");
    expect(accepted().get(`${name}: line 1`)).toBe(2);
    expect(accepted().get(`${name}: line 2`)).toBe(1);
  });
});

describe("messaging send --resend killed mid-call", () => {
  it("prints its send id at the start; the printed command finishes it: every line exactly twice in all", async () => {
    const name = "resend-killed.ndjson";
    const file = lines(name, 30);
    write(name, file);
    expect((await send(["--file", name, ...BATCH])).code).toBe(0);

    const { stderr } = await killedRun(name, ["--resend"]);
    const finish = /^resend: send id ([0-9a-f]{12})\. If this run stops before the end, finish it with\n {2}(.*)$/m.exec(stderr);
    expect(finish).not.toBeNull();
    expect(finish![2]).toBe(
      `npx -p pulumi-messaging messaging send --file ${name} --stream transactional --batch-size 10 --send-id ${finish![1]}`,
    );

    const again = await send(finish![2]);
    expect(again.code).toBe(0);
    expectEachAccepted(file, 2);
  });
});

describe("messaging send with no journal, or a journal too old to trust", () => {
  it("a fresh state directory (a new CI runner): the same file makes the same calls under the same keys, each line once", async () => {
    const name = "fresh-runner.ndjson";
    const file = lines(name, 30);
    write(name, file);
    await killedRun(name);
    const again = await send(["--file", name, ...BATCH], { MESSAGING_STATE_DIR: path.join(dir, "another-runner") });
    expect(again.code).toBe(0);
    // Calls 1 and 2 were answered from the emulator's record, call 3 sent.
    expectEachAccepted(file);
  });

  it("a call left in flight more than 24 hours ago: refused, naming its lines; --in-flight sent records it, the rest go out once", async () => {
    const name = "stale-in-flight.ndjson";
    const file = lines(name, 30);
    write(name, file);
    await killedRun(name);
    const sentAt = ageInFlightRecord(name, 25);

    const before = emulator.requestCount();
    const refused = await send(["--file", name, ...BATCH]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("left in flight more than 24 hours ago");
    expect(refused.stderr).toContain(`  line 11 (sent ${sentAt}, in flight)`);
    expect(refused.stderr).toContain("--in-flight sent");
    expect(emulator.requestCount()).toBe(before);

    const recorded = await send(["--file", name, ...BATCH, "--in-flight", "sent"]);
    expect(recorded.code).toBe(0);
    // One call only: lines 21-30. Lines 11-20 were recorded as sent without asking the service.
    expect(emulator.requestCount()).toBe(before + 1);
    expectEachAccepted(file);
  });
});

describe("messaging send --in-flight resend, the service having forgotten the key", () => {
  it("the stale call is sent again under its key: its lines exactly once more than before, no other line twice", async () => {
    // An emulator that remembers two keys: two other calls then push out the killed run's, as a service forgets keys.
    const forgetful = await startEmulator({ port: 0, host: "127.0.0.1", apiKey: API_KEY, idempotencyMaxKeys: 2 });
    const client = new MessagingClient({ apiKey: API_KEY, baseUrl: forgetful.url });
    try {
      const name = "stale-resend.ndjson";
      const file = lines(name, 30);
      write(name, file);
      await killedRun(name, [], forgetful);
      // Call 1 confirmed, call 2 processed but unanswered, call 3 never sent.
      expectEachAccepted(file.slice(0, 20), 1, forgetful);
      expectEachAccepted(file.slice(20), 0, forgetful);
      ageInFlightRecord(name, 25);
      for (const i of [1, 2]) {
        const message = { tos: [recipient(900 + i)], body: `another sender's call ${i}` };
        await client.sendMessageBatch({ stream: "transactional", messages: [message] }, { idempotencyKey: `another-call-${i}` });
      }

      const resent = await runSend(forgetful, dir, ["--file", name, ...BATCH, "--in-flight", "resend"]);
      expect(resent.code).toBe(0);
      expect(resent.stdout).toContain(
        "10 left in flight were finished under their keys: all 30 message(s) of stale-resend.ndjson are sent",
      );
      expectEachAccepted(file.slice(0, 10), 1, forgetful);
      expectEachAccepted(file.slice(10, 20), 2, forgetful);
      expectEachAccepted(file.slice(20), 1, forgetful);

      // Recorded as sent: the same command again sends nothing.
      const again = await runSend(forgetful, dir, ["--file", name, ...BATCH]);
      expect(again.stdout).toContain("already sent: all 30 message(s)");
      expect(forgetful.batches().length).toBe(2 + 4);
    } finally {
      await client.close();
      await forgetful.close();
    }
  });
});

describe("messaging send refusing a journal it cannot trust", () => {
  it("a journal of another format: exit 1, naming the journal and what to do; nothing is sent", async () => {
    const name = "other-format.ndjson";
    const file = lines(name, 5);
    write(name, file);
    expect((await send(["--file", name])).code).toBe(0);
    write(name, [...file, line(name, 5)]);
    const journalFile = journalOf(name);
    const [header, ...records] = readFileSync(journalFile, "utf8").split("\n");
    writeFileSync(journalFile, [JSON.stringify({ ...JSON.parse(header), version: 1 }), ...records].join("\n"));

    const before = emulator.requestCount();
    const refused = await send(["--file", name, "--json"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `messaging send: ${journalFile} is a journal of another format (version 1), written by another version of pulumi-messaging: ` +
        "use that version to finish the send, or a newer one that reads this format\nnothing was sent\n",
    );
    expect(JSON.parse(refused.stdout)).toEqual(
      expect.objectContaining({ status: "failed", error: { code: "journal", message: expect.stringContaining(journalFile) } }),
    );
    expect(emulator.requestCount()).toBe(before);
    expectEachAccepted([line(name, 5)], 0);
  });

  it("a journal written under another API key: exit 1, saying why and what to do; nothing is sent", async () => {
    const name = "rotated-key.ndjson";
    const file = lines(name, 5);
    write(name, file);
    expect((await send(["--file", name])).code).toBe(0);
    write(name, [...file, line(name, 5)]);

    const before = emulator.requestCount();
    const refused = await send(["--file", name], { MESSAGING_API_KEY: "sk_test_rotated_since" });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /journal\.ndjson was written under another API key: .* cannot tell which messages went out\. Finish the send with the API key it started with/,
    );
    expect(refused.stderr).not.toContain("sk_test_rotated_since");
    expect(emulator.requestCount()).toBe(before);
    expect((await send(["--file", name])).code).toBe(0);
    expectEachAccepted([...file, line(name, 5)]);
  });
});

describe("messaging send --dry-run against a journal", () => {
  it("reads it with the API key it was written under, and without one says which setting it needs; nothing is sent", async () => {
    const name = "dry-run-journal.ndjson";
    const file = lines(name, 4);
    write(name, file);
    expect((await send(["--file", name])).code).toBe(0);
    write(name, [...file, line(name, 4)]);

    const before = emulator.requestCount();
    const dry = await send(["--file", name, "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("dry run: 5 valid message(s); 4 already sent by earlier runs; 1 to send in 1 call(s)");
    const keyless = await send(["--file", name, "--dry-run"], { MESSAGING_API_KEY: undefined });
    expect(keyless.code).toBe(1);
    expect(keyless.stderr).toContain("a dry run of a send with a journal needs the API key it was sent with (MESSAGING_API_KEY)");
    expect(emulator.requestCount()).toBe(before);
  });
});

describe("messaging send reading the journal of an earlier release (version 2, unkeyed ids m1)", () => {
  it("a line appended after a run of the earlier release: only that line goes out", async () => {
    const name = "earlier-release.ndjson";
    const file = lines(name, 5);
    write(name, file);
    expect((await send(["--file", name])).code).toBe(0);
    // Written back as the earlier release wrote it: version 2, ids m1, no key fingerprint.
    const journalFile = journalOf(name);
    const [header, ...records] = readFileSync(journalFile, "utf8").split("\n");
    const { keyFingerprint: _dropped, ...earlier } = JSON.parse(header);
    const m1 = messageIdentity("m1", IdentityKey.fromApiKey("unused by m1"));
    const ids = file.map((text) => m1(JSON.parse(text)));
    const rewritten = records.map((record) => (record === "" ? record : JSON.stringify({ sent: { ...JSON.parse(record).sent, ids } })));
    writeFileSync(journalFile, [JSON.stringify({ ...earlier, version: 2, messageIds: "m1" }), ...rewritten].join("\n"));

    write(name, [...file, line(name, 5)]);
    const again = await send(["--file", name]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("5 of 6 message(s) were sent by earlier runs");
    expectEachAccepted([...file, line(name, 5)]);
  });
});

/**
 * A proxy to `target` that can hold one `/v1` request (its body read) until the test
 * releases it: a point in the middle of a run the test can act at, without timing.
 */
async function startHoldingProxy(target: string) {
  let hold: { arrived: () => void; released: Promise<void> } | undefined;
  const server = http.createServer((request, response) => {
    const held = request.url?.startsWith("/v1/") ? hold : undefined;
    if (held) hold = undefined;
    void (async () => {
      const body: Buffer[] = [];
      for await (const chunk of request) body.push(chunk as Buffer);
      if (held) {
        held.arrived();
        await held.released;
      }
      const upstream = http.request(`${target}${request.url}`, { method: request.method, headers: request.headers }, (answer) => {
        response.writeHead(answer.statusCode!, answer.headers);
        answer.on("error", () => response.destroy());
        answer.pipe(response);
      });
      // The emulator dropped the connection: so does the proxy.
      upstream.on("error", () => response.destroy());
      upstream.end(Buffer.concat(body));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Holds the next `/v1` request: `arrived` resolves when it has come, and `release` lets it through. */
    holdNext(): { arrived: Promise<void>; release: () => void } {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const arrived = new Promise<void>((resolve) => (hold = { arrived: resolve, released }));
      return { arrived, release };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("messaging send when the file changes between its two passes", () => {
  it("stops before the changed call, naming the file and the command to run; that command sends the new version once", async () => {
    const proxy = await startHoldingProxy(emulator.url);
    try {
      const name = "changed-mid-send.ndjson";
      const file = lines(name, 30);
      write(name, file);
      await killedRun(name, [], emulator, proxy.url);

      // The run after: pass 1 reads the file, then the call in flight is finished, held here
      // while line 25 (of the call not sent yet) is edited; pass 2 then reads the new text.
      const held = proxy.holdNext();
      const running = send(["--file", name, ...BATCH], { MESSAGING_BASE_URL: proxy.url });
      await held.arrived;
      const original = file[24];
      file[24] = line(name, 24, " (corrected)");
      write(name, file);
      held.release();
      const changed = await running;
      expect(changed.code).toBe(1);
      const finish = `npx -p pulumi-messaging messaging send --file ${name} --stream transactional --batch-size 10`;
      expect(changed.stderr).toContain(
        `messaging send: ${name} changed since it was checked (up to line 30); nothing more was sent (20 of 30 message(s) of the file are sent).\n` +
          `Run the command again when the file is as you want it: messages already sent are not sent again.\n  ${finish}\n`,
      );
      expectEachAccepted(file.slice(0, 20));
      expectEachAccepted([original, ...file.slice(20)], 0);

      const again = await send(finish, { MESSAGING_BASE_URL: proxy.url });
      expect(again.code).toBe(0);
      expectEachAccepted(file);
      expectEachAccepted([original], 0);
    } finally {
      await proxy.close();
    }
  });
});
