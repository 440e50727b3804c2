/**
 * An attacker who reads a stack's plain state or a `messaging send` journal, but not the API
 * key, guesses a one-time code sent in a known template to a known number: 10^6 candidates,
 * each tried with the algorithms an attacker can compute without the key: the unkeyed one of
 * earlier releases, and this release's under the emulator's public default key (which would
 * find the code were the key ignored). Nothing is recovered. The same pass
 * recovers the code from the unkeyed identity of the message, computed here: the attack is real.
 */
import { hash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { MessagingClient } from "../../client";
import { IdentityKey } from "../../client/identity-key";
import { messageIdentity } from "../../message-file/identity";
import { runSendCommand } from "../../cli/commands/send/command";
import { DEFAULT_EMULATOR_API_KEY } from "../../emulator/http";
import { startEmulator, type Emulator } from "../../emulator";
import * as batch from "../../provider/kinds/message-batch/runtime";
import { testContext } from "../support/provider-context";
import { ArrayDigest, mb3BatchId, mb3CallKey } from "../../provider/kinds/message-batch/call-plan";
import { IDENTITY_KEY } from "../../client/identity-key";
import { SEND_PLANNED, type PlannedSendHooks } from "../../client/send-messages";
import { messagesDigest } from "../../provider/messages-digest";
import { canonicalJson } from "../../schemas/canonical-json";

const API_KEY = "sk_live_9b1f0c7e44a2d6_secret_of_the_stack";
const NUMBER = "+254712345678";
const SCOPE = "otp/dev/MessageBatch::verification";
const CODE = "048213";
const template = (code: string) => [{ tos: [NUMBER], body: `Your verification code is ${code}` }];

const m1 = messageIdentity("m1", IdentityKey.fromApiKey("unused by m1"));
// This release's algorithms under the one key anyone has: were they to ignore the key, these would match.
const publicKey = IdentityKey.fromApiKey(DEFAULT_EMULATOR_API_KEY);
const m2Public = messageIdentity("m2", publicKey);
const mb3IdPublic = (code: string): string => mb3BatchId(publicKey, SCOPE, "transactional", messagesDigest(template(code)), null);
const mb3CallKeyPublic = (code: string): string => {
  const call = new ArrayDigest();
  call.add(canonicalJson(template(code)[0]));
  return mb3CallKey(publicKey, SCOPE, "transactional", null, call.finish(), 0);
};

/** `mb1`, the unkeyed batch prefix of earlier releases. */
function mb1Prefix(code: string): string {
  const identity = canonicalJson([SCOPE, "transactional", messagesDigest(template(code)), null]);
  return `mb1-${hash("sha256", identity).slice(0, 32)}`;
}

/**
 * Tries every code from 000000 to 999999 with each of `identities` (the first is the control's
 * algorithm), looking each candidate up in what the attacker read, and the first also against
 * `control` (the unkeyed identity of the code really sent).
 * @returns the codes found in what was read, and by the control
 */
function guess(
  identities: ReadonlyArray<(code: string) => string>,
  read: ReadonlySet<string>,
  control: string,
): { recovered: string[]; control: string[] } {
  const found = { recovered: [] as string[], control: [] as string[] };
  for (let n = 0; n < 1_000_000; n++) {
    const code = String(n).padStart(6, "0");
    identities.forEach((identity, i) => {
      const candidate = identity(code);
      if (read.has(candidate)) found.recovered.push(code);
      if (i === 0 && candidate === control) found.control.push(code);
    });
  }
  return found;
}

let emulator: Emulator;
let dir: string;
beforeAll(async () => {
  emulator = await startEmulator({ apiKey: API_KEY, deliveryRetrySchedule: [] });
  dir = mkdtempSync(path.join(os.tmpdir(), "messaging-guessing-"));
});
afterAll(async () => {
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("a MessageBatch's plain id (its key prefix) gives up no code to 10^6 guesses; an unkeyed one would", async () => {
  const client = new MessagingClient({ apiKey: API_KEY, baseUrl: emulator.url });
  try {
    // The keys the service (and whatever logs its requests) sees.
    const keys: string[] = [];
    const seen = {
      [IDENTITY_KEY]: client[IDENTITY_KEY],
      [SEND_PLANNED]: (messages: never, options: never, hooks: PlannedSendHooks) =>
        client[SEND_PLANNED](messages, options, { ...hooks, keyOf: (index) => keys[keys.push(hooks.keyOf!(index)) - 1] }),
    };
    const context = testContext(seen);
    const created = await batch.create(context, { stream: "transactional", messages: template(CODE), idempotencyScope: SCOPE });
    // What plain state shows: the id, which is the key prefix (the digest is a secret output); the call's key.
    const plain = new Set([created.id, created.outs!.idempotencyKeyPrefix, ...keys]);
    expect(plain.size).toBe(2);
    expect(emulator.batches().map((sent) => sent.messages[0].body)).toEqual([`Your verification code is ${CODE}`]);

    expect(guess([mb1Prefix, mb3IdPublic, mb3CallKeyPublic], plain, mb1Prefix(CODE))).toEqual({ recovered: [], control: [CODE] });
  } finally {
    await client.close();
  }
});

test("a messaging send journal gives up no code to 10^6 guesses; an unkeyed one would", async () => {
  const file = path.join(dir, "otp.ndjson");
  writeFileSync(file, `${JSON.stringify(template(CODE)[0])}\n`);
  const saved = { ...process.env };
  Object.assign(process.env, {
    MESSAGING_API_KEY: API_KEY,
    MESSAGING_BASE_URL: emulator.url,
    MESSAGING_STATE_DIR: path.join(dir, "state"),
  });
  const quiet = [jest.spyOn(process.stdout, "write").mockReturnValue(true), jest.spyOn(process.stderr, "write").mockReturnValue(true)];
  try {
    expect(await runSendCommand(["--file", file])).toBe(0);
  } finally {
    quiet.forEach((spy) => spy.mockRestore());
    process.env = saved;
  }
  const state = path.join(dir, "state");
  const journals = readdirSync(state, { recursive: true, encoding: "utf8" }).filter((entry) => entry.endsWith("journal.ndjson"));
  const text = journals.map((journal) => readFileSync(path.join(state, journal), "utf8")).join("\n");
  // Every hex run of 32 digits or more in the journal: ids, keys, fingerprints.
  const written = new Set(text.match(/[0-9a-f]{32,}/g));
  expect(written.size).toBeGreaterThan(0);

  const identities = [(code: string) => m1(template(code)[0]), (code: string) => m2Public(template(code)[0])];
  expect(guess(identities, written, m1(template(CODE)[0]))).toEqual({ recovered: [], control: [CODE] });
});
