/** MessageBatch through the real engine path: sends once on create, again only on replace. */
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
