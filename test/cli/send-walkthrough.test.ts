/**
 * The mistakes a new user makes with `messaging send`, each answered with what to fix (the
 * built CLI against a real emulator, as `commands/send/command.test.ts`). A mistake that running the
 * same command again cannot fix must not end in "run the same command again".
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { recipient, useSendTestBed } from "../support/send-harness";
import { freeLoopbackPort } from "../support/loopback-server";

const { emulator, dir, send } = useSendTestBed("messaging-walkthrough-");

function ndjsonFile(name: string, count: number): string {
  const lines = Array.from({ length: count }, (_, i) => JSON.stringify({ tos: [recipient(i)], body: `${name}: note ${i}` }));
  writeFileSync(path.join(dir, name), `${lines.join("\n")}\n`);
  return name;
}

describe("MESSAGING_BASE_URL mistakes", () => {
  it.each([["/v1"], ["/v1/"]])(
    "a base URL ending in %s: a setting error naming MESSAGING_BASE_URL, nothing sent, no 'run again'",
    async (tail) => {
      const before = emulator.requestCount();
      const run = await send(["--file", ndjsonFile("v1.ndjson", 3)], { MESSAGING_BASE_URL: `${emulator.url}${tail}` });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("MESSAGING_BASE_URL");
      expect(run.stderr).toContain("/v1");
      expect(run.stderr).toContain(emulator.url);
      expect(run.stderr).not.toMatch(/run the same command again|finish with/i);
      expect(emulator.requestCount()).toBe(before);
    },
  );

  it("a base URL under another path (404 on a known route): says to correct MESSAGING_BASE_URL, not to run again", async () => {
    const run = await send(["--file", ndjsonFile("prefix.ndjson", 3)], { MESSAGING_BASE_URL: `${emulator.url}/api` });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("HTTP 404");
    expect(run.stderr).toMatch(/Fix: .*MESSAGING_BASE_URL/);
    expect(run.stderr).not.toMatch(/run the same command again|finish with/i);
  });
});

describe("connection-level failures say what to check", () => {
  it("connection refused: check MESSAGING_BASE_URL, or start the emulator; no idempotency-key advice", async () => {
    const url = `http://127.0.0.1:${await freeLoopbackPort()}`;
    const run = await send(["--file", ndjsonFile("refused.ndjson", 2)], { MESSAGING_BASE_URL: url });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("ECONNREFUSED");
    expect(run.stderr).toContain("nothing accepts connections");
    expect(run.stderr).toContain(url);
    expect(run.stderr).toContain("MESSAGING_BASE_URL");
    expect(run.stderr).toContain("messaging emulator");
    expect(run.stderr).not.toContain("retry with it");
  });

  it("https:// against the emulator's plain HTTP: says to use http:// in MESSAGING_BASE_URL", async () => {
    const url = emulator.url.replace(/^http:/, "https:");
    const before = emulator.batches().length;
    const run = await send(["--file", ndjsonFile("tls.ndjson", 2)], { MESSAGING_BASE_URL: url });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/plain HTTP/);
    expect(run.stderr).toContain(`MESSAGING_BASE_URL`);
    expect(run.stderr).toContain(emulator.url);
    expect(run.stderr).not.toContain("retry with it");
    expect(emulator.batches()).toHaveLength(before);
  });
});

describe("MESSAGING_API_KEY missing", () => {
  it("exits 2 naming MESSAGING_API_KEY and the emulator's default key (as listen, trigger and endpoints use), nothing sent", async () => {
    const before = emulator.requestCount();
    const run = await send(["--file", ndjsonFile("nokey.ndjson", 2)], { MESSAGING_API_KEY: undefined });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("MESSAGING_API_KEY");
    expect(run.stderr).toContain("export MESSAGING_API_KEY=sk_test_emulator");
    expect(emulator.requestCount()).toBe(before);
    const json = await send(["--file", "nokey.ndjson", "--json"], { MESSAGING_API_KEY: undefined });
    expect(JSON.parse(json.stdout).error.message).toContain("sk_test_emulator");
  });
});

describe("a re-run on a fresh runner (no journal)", () => {
  it("reports how many messages the service had already accepted (Idempotent-Replayed), in the summary and in --json", async () => {
    const file = ndjsonFile("fresh-runner.ndjson", 5);
    const first = await send(["--file", file, "--batch-size", "2"], { MESSAGING_STATE_DIR: path.join(dir, "runner-1") });
    expect(first.code).toBe(0);
    const batchesAfterFirst = emulator.batches().length;
    // The same file again, from runners that never saw it: every call is answered from the record.
    const again = await send(["--file", file, "--batch-size", "2", "--json"], { MESSAGING_STATE_DIR: path.join(dir, "runner-2") });
    expect(again.code).toBe(0);
    const outcome = JSON.parse(again.stdout);
    expect(outcome).toMatchObject({ status: "sent", sentNow: 5, alreadyAccepted: 5 });
    const text = await send(["--file", file, "--batch-size", "2"], { MESSAGING_STATE_DIR: path.join(dir, "runner-3") });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/5 of them the service had already accepted/);
    // Nothing was accepted twice.
    expect(emulator.batches().length).toBe(batchesAfterFirst);
    expect(first.stdout).not.toMatch(/already accepted/);
  });
});

describe("argument mistakes", () => {
  it("a file given without --file: says to use --file FILE", async () => {
    const run = await send([ndjsonFile("positional.ndjson", 1)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("messaging send --file positional.ndjson");
  });

  it("-f: suggests the long options it may stand for", async () => {
    const run = await send(["-f", ndjsonFile("short.ndjson", 1)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown option -f \(did you mean --file/);
  });
});

describe("CSV message identity: the message as sent, header included", () => {
  it("two CSV files with the same data row under different headers are two messages, each sent (no key collision)", async () => {
    writeFileSync(path.join(dir, "greeting.csv"), `to,body\n${recipient(1)},Hello\n`);
    writeFileSync(path.join(dir, "template.csv"), `to,template_id\n${recipient(1)},Hello\n`);
    const before = emulator.batches().length;
    const first = await send(["--file", "greeting.csv"], { MESSAGING_STATE_DIR: path.join(dir, "csv-a") });
    expect(first.code).toBe(0);
    const second = await send(["--file", "template.csv", "--json"], { MESSAGING_STATE_DIR: path.join(dir, "csv-b") });
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout).alreadyAccepted ?? 0).toBe(0);
    const sent = emulator
      .batches()
      .slice(before)
      .flatMap((batch) => batch.messages);
    expect(sent).toEqual([
      { tos: [recipient(1)], body: "Hello" },
      { tos: [recipient(1)], template: { id: "Hello", model: {} } },
    ]);
  });

  it("after a header fix, --allow-changed sends the corrected message (no idempotency_key_reused)", async () => {
    const file = path.join(dir, "fixed.csv");
    writeFileSync(file, `to,template_id,model.nme\n${recipient(2)},welcome,Ann\n`);
    const state = path.join(dir, "csv-fix");
    const before = emulator.batches().length;
    expect((await send(["--file", "fixed.csv"], { MESSAGING_STATE_DIR: state })).code).toBe(0);
    writeFileSync(file, `to,template_id,model.name\n${recipient(2)},welcome,Ann\n`);
    const again = await send(["--file", "fixed.csv", "--allow-changed"], { MESSAGING_STATE_DIR: state });
    expect(again.stderr).not.toContain("idempotency_key_reused");
    expect(again.code).toBe(0);
    const sent = emulator
      .batches()
      .slice(before)
      .flatMap((batch) => batch.messages);
    expect(sent).toEqual([
      { tos: [recipient(2)], template: { id: "welcome", model: { nme: "Ann" } } },
      { tos: [recipient(2)], template: { id: "welcome", model: { name: "Ann" } } },
    ]);
  });
});
