/** MessageBatch through the real engine path: sends once on create, again only on replace. */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { startEmulator, type Emulator } from "../../emulator";
import { expectOk, opsByName, PackedWorkspace } from "./harness";

const API_KEY = "sk_test_batches_71c0";

let workspace: PackedWorkspace;
let project: string;
let emulator: Emulator;

beforeAll(async () => {
  workspace = new PackedWorkspace();
  project = workspace.project("batch-stack");
  emulator = await startEmulator({ apiKey: API_KEY });
});

afterAll(async () => {
  await emulator?.close();
  workspace?.cleanup();
});

const config = (count: number, trigger = "1") => ({
  "messaging:apiKey": API_KEY,
  "messaging:baseUrl": emulator.url,
  "batch-stack:count": String(count),
  "batch-stack:trigger": trigger,
});

test("2,500 messages go out once, in three calls; an unchanged program sends nothing; a new trigger sends again", async () => {
  const stack = workspace.stack(project, { config: config(2500) });
  const preview = expectOk(await stack.preview());
  expect(opsByName(preview)).toEqual({ reminders: "create" });
  expect(emulator.batches()).toHaveLength(0);

  const up = expectOk(await stack.up());
  const batches = emulator.batches();
  expect(batches.map((batch) => batch.messages.length)).toEqual([1000, 1000, 500]);
  expect(up.outputs.batchIds).toEqual(batches.map((batch) => batch.id));
  expect(up.outputs.messageCount).toBe(2500);
  const recipients = batches.flatMap((batch) => batch.messages.map((message) => message.tos[0]));
  expect(new Set(recipients).size).toBe(2500);

  expect(opsByName(expectOk(await stack.up()))).toEqual({ reminders: "same" });
  expect(emulator.batches()).toHaveLength(3);

  const retriggered = workspace.stack(project, { config: config(2500, "2"), continues: stack });
  const again = expectOk(await retriggered.up());
  expect(again.steps.find((step) => step.name === "reminders")).toMatchObject({ op: "replace", replaces: ["triggers"] });
  expect(emulator.batches()).toHaveLength(6);
});

test("an invalid message fails check naming it, and nothing is sent", async () => {
  const before = emulator.batches().length;
  const stack = workspace.stack(project, { config: config(0) });
  const result = await stack.up();
  expect(result.ok).toBe(false);
  expect(result.errors.join("\n")).toMatch(/property messages has a problem: expected at least one message/);
  expect(emulator.batches()).toHaveLength(before);
});

test("a send that stops part-way is kept in state, and the next up finishes it without sending anything twice", async () => {
  // A service that accepts the first call, refuses the rest until told otherwise, and
  // replays a repeated idempotency key, as the emulator does.
  const accepted = new Map<string, { id: string; messages: Array<{ tos: string[] }> }>();
  let acceptAll = false;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const key = String(req.headers["idempotency-key"]);
      const replay = accepted.get(key);
      if (!replay && !acceptAll && !key.endsWith("-0")) {
        res.writeHead(400, { "content-type": "application/problem+json" });
        res.end(JSON.stringify({ title: "refused_for_test", status: 400 }));
        return;
      }
      const batch = replay ?? { id: `msba_fake_${accepted.size}`, messages: JSON.parse(Buffer.concat(chunks).toString()).messages };
      accepted.set(key, batch);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: batch.id }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const stack = workspace.stack(project, { config: { ...config(2500), "messaging:baseUrl": url } });
    const first = await stack.up();
    expect(first.ok).toBe(false);
    expect(first.errors.join("\n")).toMatch(/1000 message\(s\) in 1 chunk\(s\) were accepted/);
    const state = JSON.parse(stack.stateText());
    expect(state.resources[0]).toMatchObject({ initError: expect.any(String), outputs: { batchIds: ["msba_fake_0"], sentAt: null } });

    acceptAll = true;
    const second = expectOk(await stack.up());
    expect(opsByName(second)).toEqual({ reminders: "update" });
    expect(second.outputs.batchIds).toEqual(["msba_fake_0", "msba_fake_1", "msba_fake_2"]);
    const recipients = [...accepted.values()].flatMap((batch) => batch.messages.map((message) => message.tos[0]));
    expect(recipients).toHaveLength(2500);
    expect(new Set(recipients).size).toBe(2500);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test("a first call processed by the service but never answered is not sent again by the next up", async () => {
  const stack = workspace.stack(project, { config: config(10, "lost-answer") });
  const before = emulator.batches().length;
  // Every attempt is processed, then its connection dropped before the answer.
  emulator.setFaults({ failureRate: 1, seed: 7, kinds: ["drop_after_processing"] });
  try {
    const first = await stack.up();
    expect(first.ok).toBe(false);
  } finally {
    emulator.setFaults({ failureRate: 0 });
  }
  expect(emulator.batches().length - before).toBe(1);
  expect(JSON.parse(stack.stateText()).resources[0]).toMatchObject({ initError: expect.any(String), outputs: { sentAt: null } });

  const second = expectOk(await stack.up());
  expect(opsByName(second)).toEqual({ reminders: "update" });
  expect(emulator.batches().length - before).toBe(1);
  expect(second.outputs.batchIds).toEqual([emulator.batches().at(-1)!.id]);
});
