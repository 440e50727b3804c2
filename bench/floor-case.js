"use strict";
// Child process of bench/run.js: MessagingClient.sendMessages against raw undici.request
// POSTs of the same batches (JSON.stringify per request, the same headers, the body read and
// parsed), both at the same concurrency against the minimal server, runs interleaved.
// Parent → { cmd: "run", url, messages, concurrency, repeats }; child → { kind: "result", … }.

const { Agent, request } = require("undici");
const { MessagingClient } = require("../dist/client");
const { collectGarbage, makeMessages, median, msSince, now } = require("./lib");

const BATCH = 1000;
const API_KEY = "sk_test_floor";
const HEADERS = {
  authorization: `Basic ${Buffer.from(`${API_KEY}:`).toString("base64")}`,
  "x-service-version": "2024-06-01",
  accept: "application/json",
  "content-type": "application/json",
};

/** The floor: each batch sliced, stringified and POSTed with undici.request, `concurrency` at a time. */
async function raw(url, agent, messages, concurrency) {
  let next = 0;
  let key = 0;
  const worker = async () => {
    while (next < messages.length) {
      const start = next;
      next += BATCH;
      const body = JSON.stringify({ stream: "transactional", messages: messages.slice(start, start + BATCH) });
      const response = await request(`${url}/v1/message_batches`, {
        method: "POST",
        dispatcher: agent,
        headers: { ...HEADERS, "idempotency-key": `raw-${key++}` },
        body,
      });
      await response.body.json();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

async function timed(fn) {
  collectGarbage();
  const cpu = process.cpuUsage();
  const start = now();
  await fn();
  const wallMs = msSince(start);
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000 };
}

async function run({ url, messages: count, concurrency, repeats }) {
  const messages = makeMessages(count);
  const agent = new Agent();
  const client = new MessagingClient({ apiKey: API_KEY, baseUrl: url, dispatcher: new Agent() });
  const sendWithClient = () => client.sendMessages(messages, { stream: "transactional", concurrency });
  // Warm-up of both (JIT, connections).
  await raw(url, agent, messages.slice(0, 20_000), concurrency);
  await client.sendMessages(messages.slice(0, 20_000), { stream: "transactional", concurrency });
  const rawRuns = [];
  const clientRuns = [];
  for (let i = 0; i < repeats; i++) {
    rawRuns.push(await timed(() => raw(url, agent, messages, concurrency)));
    clientRuns.push(await timed(sendWithClient));
  }
  await client.close();
  await agent.close();
  const rawWall = median(rawRuns.map((r) => r.wallMs));
  const clientWall = median(clientRuns.map((r) => r.wallMs));
  const rawCpu = median(rawRuns.map((r) => r.cpuMs));
  const clientCpu = median(clientRuns.map((r) => r.cpuMs));
  return {
    kind: "result",
    messages: count,
    concurrency,
    repeats,
    rawWallMs: rawWall,
    clientWallMs: clientWall,
    wallRatio: clientWall / rawWall,
    rawCpuMs: rawCpu,
    clientCpuMs: clientCpu,
    cpuRatio: clientCpu / rawCpu,
    rawWallPerRun: rawRuns.map((r) => r.wallMs),
    clientWallPerRun: clientRuns.map((r) => r.wallMs),
  };
}

process.on("message", (message) => {
  run(message).then(
    (result) => {
      process.send(result);
      process.disconnect();
    },
    (error) => {
      process.send({ kind: "error", error: String(error && error.stack ? error.stack : error) });
      process.disconnect();
    },
  );
});
