import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { IdentityKey } from "../../../../client/identity-key";
import { messageIdentity } from "../../../../message-file/identity";
import { FileChanged, planSend, plannedMessages, type SendPlan } from "../../../../cli/commands/send/plan";

const lines = (count: number, edit?: { at: number; body: string }) =>
  Array.from({ length: count }, (_, i) => ({
    tos: [`+2547${String(i).padStart(8, "0")}`],
    body: edit?.at === i ? edit.body : `message ${i}`,
  }));
const key = IdentityKey.fromApiKey("sk_test_plan");
const messageId = messageIdentity("m2", key);
const ndjson = (messages: object[]) => messages.map((message) => `${JSON.stringify(message)}\n`).join("");

describe("plannedMessages (pass 2)", () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "pulumi-messaging-send-plan-"));
    file = path.join(dir, "messages.ndjson");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function plan(): Promise<SendPlan> {
    const planned = await planSend({
      file,
      format: "ndjson",
      batchSize: 2,
      keyScope: { key, prefix: "ms3", stream: "transactional", sendId: "" },
      messageId,
      sent: new Map(),
      stopped: () => false,
    });
    if (planned === "stopped" || "invalid" in planned) throw new Error("expected a plan");
    return planned;
  }

  async function secondPass(sendPlan: SendPlan) {
    const messages: unknown[] = [];
    const seen: Array<[number, string, string]> = [];
    let error: unknown;
    try {
      for await (const message of plannedMessages({ file, format: "ndjson", messageId }, sendPlan, (...place) => seen.push(place))) {
        messages.push(message);
      }
    } catch (caught) {
      error = caught;
    }
    return { messages, seen, error };
  }

  it("hands over every message of the file as read, each with its call, identity and place", async () => {
    const written = lines(5);
    writeFileSync(file, ndjson(written));
    const { messages, seen, error } = await secondPass(await plan());
    expect(error).toBeUndefined();
    expect(messages).toEqual(written);
    expect(seen).toEqual(written.map((message, i) => [Math.floor(i / 2), messageId(message), `line ${i + 1}`]));
  });

  it("a call changed since pass 1, in the same chunk read as calls unchanged: those are handed over whole, then it stops before the changed call's last message", async () => {
    writeFileSync(file, ndjson(lines(6)));
    const sendPlan = await plan();
    // Line 5 (the third call's first message) is edited between the passes; the file is one chunk.
    writeFileSync(file, ndjson(lines(6, { at: 4, body: "message 4 (corrected)" })));
    const { messages, seen, error } = await secondPass(sendPlan);
    expect(error).toBeInstanceOf(FileChanged);
    expect((error as Error).message).toBe(`${file} changed since it was checked (up to line 6)`);
    // The first two calls whole, and the first message of the third (its last one is never handed over).
    expect(messages).toEqual(lines(5, { at: 4, body: "message 4 (corrected)" }));
    expect(seen.map(([call, , location]) => [call, location])).toEqual([
      [0, "line 1"],
      [0, "line 2"],
      [1, "line 3"],
      [1, "line 4"],
      [2, "line 5"],
      [2, "line 6"],
    ]);
  });

  it("a message that no longer reads stops the pass at its line, after the messages before it", async () => {
    writeFileSync(file, ndjson(lines(4)));
    const sendPlan = await plan();
    writeFileSync(file, `${ndjson(lines(3))}{"tos": [\n`);
    const { messages, error } = await secondPass(sendPlan);
    expect(error).toBeInstanceOf(FileChanged);
    expect((error as Error).message).toBe(`${file} changed since it was checked (at line 4)`);
    expect(messages).toEqual(lines(3));
  });
});
