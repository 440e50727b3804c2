/**
 * One table of hostile input (`../support/hostile-cases.ts`), every row run through the path it comes in on:
 * each ends in a clear error (status, code, or text naming the field, line or argument) or
 * in exact preservation (what was recorded or read, compared in full). One emulator for the
 * file; `messaging send` runs in-process (its exit code and output captured), against it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { inspect } from "node:util";
import { request } from "undici";
import { MessagingClient } from "../../client";
import { createRedactor, REDACTED } from "../../client/redact";
import { runSendCommand } from "../../cli/commands/send/command";
import { startEmulator, type Emulator } from "../../emulator";
import { isConfigurationError, isValidationError, type ValidationError } from "../../errors";
import { MemoryReplayGuard, parseEvent, signPayload, verifyWebhookRequest } from "../../receiver";
import { PROBLEM_CONTENT_TYPE, Problem, jsonHazardField, parseStrictJson } from "../../schemas";
import { startServer } from "../support/loopback-server";
import { basicAuth, call, VERSION } from "../support/emulator";
import {
  CANARY,
  HOSTILE_CASES,
  REDACTION_CASES,
  type ClientEndpointCase,
  type ClientModelCase,
  type ClientOptionsCase,
  type HostileCase,
  type KeptFile,
  type KeptRequest,
  type OversizedBody,
  type ParseEventCase,
  type ReceiverArgumentCase,
  type RedactionCase,
  type RefusedFile,
  type RefusedRequest,
  type StrictJsonCase,
} from "../support/hostile-cases";

let emulator: Emulator;
let dir: string;
const savedEnv: Record<string, string | undefined> = {};
beforeAll(async () => {
  emulator = await startEmulator({ deliveryRetrySchedule: [] });
  dir = mkdtempSync(path.join(os.tmpdir(), "messaging-hostile-"));
  // `messaging send` reads its settings from the environment: this emulator, journals in `dir`.
  const env = { MESSAGING_API_KEY: emulator.apiKey, MESSAGING_BASE_URL: emulator.url, MESSAGING_STATE_DIR: path.join(dir, "state") };
  for (const [name, value] of Object.entries(env)) {
    savedEnv[name] = process.env[name];
    process.env[name] = value;
  }
});
afterAll(async () => {
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("hostile input: a clear error or exact preservation, row by row", () => {
  it.each(HOSTILE_CASES.map((row) => [`${row.via}: ${row.name}`, row] as const))("%s", async (_name, row) => {
    await RUN[row.via](row as never);
  });
});

describe("redaction: every form of the canary at once, through a real client", () => {
  it("no form of the key reaches the error, its inspect output or its JSON", async () => {
    const server = await startServer((_req, res) => {
      const detail = REDACTION_CASES.map(({ name, form }) => `${name}: ${form}`).join("; ");
      res.writeHead(401, { "content-type": "application/problem+json" }).end(
        JSON.stringify({
          type: "urn:x",
          title: "unauthorized",
          detail,
          errors: Object.fromEntries(REDACTION_CASES.map(({ form }) => [form, [form]])),
        }),
      );
    });
    const client = new MessagingClient({ apiKey: CANARY, baseUrl: server.url, maxRetries: 0 });
    let thrown: unknown;
    try {
      await client.sendMessageBatch({ stream: "transactional", messages: [{ tos: ["+254712345678"], body: "x" }] });
    } catch (error) {
      thrown = error;
    } finally {
      await client.close();
      await server.close();
    }
    expect(thrown).toBeDefined();
    const everything = [String((thrown as Error).message), inspect(thrown, { depth: 10, showHidden: true }), JSON.stringify(thrown)].join(
      "\n",
    );
    for (const { name, form } of REDACTION_CASES) expect([name, everything.includes(form)]).toEqual([name, false]);
    expect(everything.toLowerCase()).not.toContain("canary");
  });
});

// ---- one runner per input path ----

type Runners = { [V in HostileCase["via"]]: (row: Extract<HostileCase, { via: V }>) => Promise<void> };

const RUN: Runners = {
  emulator: async (row) => ("kept" in row ? keptRequest(row) : refusedRequest(row)),
  "emulator, oversized body": oversizedBody,
  "messaging send": async (row) => ("kept" in row ? keptFile(row) : refusedFile(row)),
  parseStrictJson: async (row) => strictJson(row),
  parseEvent: async (row) => parsedEvent(row),
  client: clientModel,
  "client errors": async (row) => redaction(row),
  verifyWebhookRequest: receiverArgument,
  "client endpoint": clientEndpoint,
  "client options": async (row) => clientOptions(row),
};

async function clientEndpoint(row: ClientEndpointCase): Promise<void> {
  // Port 1 on loopback: nothing listens; a request would fail with a ConnectionError instead.
  const client = new MessagingClient({ apiKey: "sk_test_x", baseUrl: "http://127.0.0.1:1", maxRetries: 0 });
  let thrown: unknown;
  try {
    await client.createWebhookEndpoint(row.input as never);
  } catch (error) {
    thrown = error;
  } finally {
    await client.close();
  }
  expect(isValidationError(thrown)).toBe(true);
  const errors = (thrown as ValidationError).fieldErrors;
  expect(Object.keys(errors)).toContain(row.field);
  if (row.reason !== undefined) expect(errors[row.field].join("; ")).toMatch(row.reason);
}

function clientOptions(row: ClientOptionsCase): void {
  let thrown: unknown;
  try {
    new MessagingClient(row.options as never);
  } catch (error) {
    thrown = error;
  }
  expect(isConfigurationError(thrown)).toBe(true);
  expect((thrown as Error).message).toContain(`'${row.option}'`);
}

async function refusedRequest(row: RefusedRequest): Promise<void> {
  const before = { batches: emulator.batches().length, endpoints: emulator.endpoints().length };
  const result = await call(emulator, row.path, row.options);
  expect(result.status).toBe(row.status);
  expect(String(result.headers["content-type"])).toContain(PROBLEM_CONTENT_TYPE);
  const problem = Problem.parse(result.json);
  expect(problem.title).toBe(row.title);
  expect(problem.type).toBe(`urn:messaging:problem:${row.title}`);
  // The field named, or (for nesting) a path inside it.
  if (row.field !== undefined) {
    const field = row.field;
    const keys = Object.keys(problem.errors ?? {});
    expect([keys, keys.some((key) => key === field || key.startsWith(`${field}.`) || key.startsWith(`${field}[`))]).toEqual([keys, true]);
  }
  if (row.status === 415) expect(problem.detail).toMatch(/UTF-8/);
  // Nothing was recorded, and the emulator still answers.
  expect({ batches: emulator.batches().length, endpoints: emulator.endpoints().length }).toEqual(before);
  expect((await call(emulator, "/_emulator/batches?limit=1")).status).toBe(200);
}

async function keptRequest(row: KeptRequest): Promise<void> {
  const result = await call(emulator, row.path, row.options);
  expect(result.status).toBe(200);
  if (row.kept.what === "batch model") {
    const model = emulator.batches().at(-1)?.messages[0].template?.model;
    // Compared as text too: same keys, same order, same numbers.
    expect(JSON.stringify(model)).toBe(JSON.stringify(row.kept.value));
    expect(model).toEqual(row.kept.value);
  } else {
    expect(result.json.description).toBe(row.kept.value);
    expect(emulator.endpoints().at(-1)?.description).toBe(row.kept.value);
  }
}

async function oversizedBody(row: OversizedBody): Promise<void> {
  const headers = { authorization: basicAuth(emulator.apiKey), "x-service-version": VERSION, "content-type": "application/json" };
  if (row.how === "declared") {
    // Only the head is sent: an answer at all shows the body was not waited for.
    const head =
      "POST /v1/message_batches HTTP/1.1\r\nHost: localhost\r\n" +
      Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("") +
      `content-length: ${80 * 1024 * 1024}\r\n\r\n`;
    const answer = await rawExchange(head);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain("payload_too_large");
  } else {
    const chunk = Buffer.alloc(1024 * 1024, "a");
    async function* body() {
      for (let i = 0; i < 12; i++) yield chunk;
    }
    const response = await request(`${emulator.url}/v1/message_batches`, { method: "POST", headers, body: Readable.from(body()) });
    expect(response.statusCode).toBe(413);
    expect(((await response.body.json()) as { title: string }).title).toBe("payload_too_large");
  }
  expect((await call(emulator, "/_emulator/batches?limit=1")).status).toBe(200);
}

/** Sends `head` on a raw socket; resolves with what came back once a whole response (by its Content-Length) has. */
function rawExchange(head: string): Promise<string> {
  const { port } = new URL(emulator.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1", () => socket.write(head));
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      const end = received.indexOf("\r\n\r\n");
      const length = /content-length: (\d+)/i.exec(received);
      if (end !== -1 && length !== null && received.length >= end + 4 + Number(length[1])) {
        socket.destroy();
        resolve(received);
      }
    });
    socket.on("error", reject);
  });
}

/** Runs `messaging send ...args` in this process; its exit code and what it wrote. */
async function send(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const out = jest.spyOn(process.stdout, "write").mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = jest.spyOn(process.stderr, "write").mockImplementation((chunk) => ((stderr += String(chunk)), true));
  try {
    const code = await runSendCommand(args);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

function writeFile(row: RefusedFile | KeptFile): string {
  const file = path.join(dir, row.file);
  writeFileSync(file, row.content);
  return file;
}

async function refusedFile(row: RefusedFile): Promise<void> {
  const file = writeFile(row);
  const before = emulator.batches().length;
  const run = await send(["--file", file, "--dry-run", ...(row.args ?? [])]);
  expect(run.code).toBe(1);
  if (row.args?.includes("--json")) {
    const outcome = JSON.parse(run.stdout);
    expect(outcome).toMatchObject({ status: "invalid", file });
    expect(outcome.error).toMatch(row.error);
  } else {
    expect(run.stderr).toMatch(row.error);
    expect(run.stderr).toContain("nothing was sent");
  }
  expect(run.stderr).not.toMatch(/TypeError|RangeError|at .*\.[jt]s:\d+/); // no crash trace
  expect(emulator.batches().length).toBe(before);
}

async function keptFile(row: KeptFile): Promise<void> {
  const file = writeFile(row);
  const before = emulator.batches().length;
  const run = await send(["--file", file, ...(row.args ?? [])]);
  expect([run.code, run.stderr]).toEqual([0, expect.any(String)]);
  const batches = emulator.batches().slice(before);
  expect([batches.length > 0, run.stdout, run.stderr]).toEqual([true, run.stdout, run.stderr]);
  expect(batches.map((batch) => batch.stream)).toEqual(batches.map(() => row.kept.stream));
  const messages = batches.flatMap((batch) => batch.messages);
  expect(JSON.stringify(messages)).toBe(JSON.stringify(row.kept.messages));
}

function strictJson(row: StrictJsonCase): void {
  const result = parseStrictJson(row.text);
  if (row.error === undefined) {
    expect(result).toEqual({ ok: true, value: JSON.parse(row.text) });
    return;
  }
  expect(result.ok).toBe(false);
  const problems = result.ok ? [] : result.problems;
  expect(problems.length).toBeGreaterThan(0);
  expect(`${jsonHazardField(problems[0])}: ${problems[0].message}`).toMatch(row.error);
}

function parsedEvent(row: ParseEventCase): void {
  if (row.kept !== undefined) {
    expect(parseEvent(row.body).data.object).toEqual(row.kept);
    return;
  }
  let thrown: unknown;
  try {
    parseEvent(row.body);
  } catch (error) {
    thrown = error;
  }
  expect(isValidationError(thrown)).toBe(true);
  expect((thrown as ValidationError).fieldErrors[row.field!]).toEqual([expect.stringMatching(row.error!)]);
}

async function clientModel(row: ClientModelCase): Promise<void> {
  // Port 1 on loopback: nothing listens; a request would fail with a ConnectionError instead.
  const client = new MessagingClient({ apiKey: "sk_test_x", baseUrl: "http://127.0.0.1:1", maxRetries: 0 });
  let thrown: unknown;
  try {
    await client.sendMessageBatch({
      stream: "transactional",
      messages: [row.message],
    } as never);
  } catch (error) {
    thrown = error;
  } finally {
    await client.close();
  }
  expect(isValidationError(thrown)).toBe(true);
  const keys = Object.keys((thrown as ValidationError).fieldErrors);
  expect([keys, keys.some((key) => key === row.field || key.startsWith(`${row.field}.`))]).toEqual([keys, true]);
  if (row.reason !== undefined) expect((thrown as ValidationError).fieldErrors[row.field]).toEqual([row.reason]);
}

function redaction(row: RedactionCase): void {
  const redact = createRedactor(CANARY);
  expect(redact.text(`before ${row.form} after`)).toBe(`before ${REDACTED} after`);
  const json = JSON.stringify(redact.json({ [`k ${row.form}`]: [`v ${row.form}`], nested: { deep: row.form } }));
  expect(json).not.toContain(row.form);
  expect(json).toContain(REDACTED);
}

const SECRET = "whsec_hostile_test";
const EVENT = JSON.stringify({ id: "evt_h1", type: "payment.succeeded", created: "2024-06-01T12:00:00Z", data: { object: {} } });
const signedRequest = () =>
  new Request("http://receiver.test/webhooks", {
    method: "POST",
    body: EVENT,
    headers: { "x-service-signature": signPayload(EVENT, SECRET) },
  });

async function receiverArgument(row: ReceiverArgumentCase): Promise<void> {
  let thrown: unknown;
  try {
    if (row.call === "headerName") await verifyWebhookRequest(signedRequest(), SECRET, { headerName: row.value as string });
    else if (row.call === "replayGuard")
      await verifyWebhookRequest(signedRequest(), SECRET, { replayGuard: row.value as MemoryReplayGuard });
    else if (row.call === "maxBodyBytes") await verifyWebhookRequest(signedRequest(), SECRET, { maxBodyBytes: row.value as number });
    else if (row.call === "argument") await verifyWebhookRequest(row.value as Request, SECRET);
    else {
      const used = signedRequest();
      await used.text();
      await verifyWebhookRequest(used, SECRET);
    }
  } catch (error) {
    thrown = error;
  }
  expect(isConfigurationError(thrown)).toBe(true);
  expect(thrown).not.toBeInstanceOf(TypeError);
  expect((thrown as Error).message).toMatch(row.error);
}
