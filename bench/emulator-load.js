"use strict";
// Section 5 of `npm run bench`: the emulator under load, against a server that only parses
// JSON, in the same run. See bench/README.md.

const { fork } = require("node:child_process");
const path = require("node:path");
const { Pool } = require("undici");
const { ask, count, median, mib, msSince, now, table } = require("./lib");

const BATCHES = 1000;
const MESSAGES_PER_BATCH = 1000;
const CONCURRENCY = 4;
const MAX_STORED_MESSAGES = 200_000;
const WARM_UP = 20;
/** The load is sent in this many rounds per server, alternating between the two. */
const ROUNDS = 4;

function batchBody() {
  const messages = Array.from({ length: MESSAGES_PER_BATCH }, (_, i) => ({
    tos: [`+2547${String(10_000_000 + i).padStart(8, "0")}`],
    body: `Your appointment is tomorrow at 10:00 (reference ${i})`,
  }));
  return JSON.stringify({ stream: "transactional", messages });
}

/** POSTs `total` batches with `CONCURRENCY` requests in flight; returns the wall time in ms. */
async function postBatches(pool, auth, body, total, keyPrefix) {
  let next = 0;
  const start = now();
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const response = await pool.request({
        method: "POST",
        path: "/v1/message_batches",
        headers: {
          authorization: auth,
          "x-service-version": "2024-06-01",
          "content-type": "application/json",
          "idempotency-key": `${keyPrefix}-${i}`,
        },
        body,
      });
      const text = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`batch ${i}: HTTP ${response.statusCode}: ${text.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return msSince(start);
}

async function timedGet(pool, auth, path) {
  const start = now();
  const response = await pool.request({ method: "GET", path, headers: { authorization: auth } });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`GET ${path}: HTTP ${response.statusCode}`);
  return { ms: msSince(start), bytes: Buffer.byteLength(text) };
}

/** Starts one server in its own process, with a pool of `CONCURRENCY` connections to it, warmed up. */
async function startServer(server) {
  const host = fork(path.join(__dirname, "load-host.js"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const stop = async () => {
    await ask(host, { cmd: "stop" }).catch(() => undefined);
    if (host.connected) host.disconnect();
  };
  try {
    const { url, apiKey } = await ask(host, {
      cmd: "start",
      server,
      options: { maxStoredMessages: MAX_STORED_MESSAGES, deliveryRetrySchedule: [] },
    });
    const auth = `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`;
    const pool = new Pool(url, { connections: CONCURRENCY });
    await postBatches(pool, auth, batchBody(), WARM_UP, "warm");
    return { server, host, pool, auth, wallMs: 0, cpuMicros: 0, close: async () => (await pool.close(), await stop()) };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Runs section 5: both servers up at once, then the load in `ROUNDS` interleaved rounds
 * (json, emulator, json, …), so a slower or faster stretch of the machine falls on both.
 */
async function emulatorLoad(progress) {
  const servers = [];
  try {
    for (const server of ["json", "emulator"]) servers.push(await startServer(server));
    const body = batchBody();
    progress(
      `${BATCHES} batches of ${MESSAGES_PER_BATCH} messages to each server, ${CONCURRENCY} in flight, in ${ROUNDS} interleaved rounds`,
    );
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of servers) {
        const cpuBefore = (await ask(s.host, { cmd: "cpu" })).micros;
        s.wallMs += await postBatches(s.pool, s.auth, body, BATCHES / ROUNDS, `load-${round}`);
        s.cpuMicros += (await ask(s.host, { cmd: "cpu" })).micros - cpuBefore;
      }
    }
    // The listing calls come before the stats, so the emulator's peak RSS includes them.
    const { pool, auth } = servers[1];
    const pageMs = [];
    for (let i = 0; i < 6; i++) pageMs.push((await timedGet(pool, auth, "/_emulator/batches?limit=10")).ms);
    const fullListing = await timedGet(pool, auth, "/_emulator/batches");
    const [json, emulator] = await Promise.all(
      servers.map(async (s) => ({
        server: s.server,
        batches: BATCHES,
        wallMs: s.wallMs,
        batchesPerSecond: BATCHES / (s.wallMs / 1000),
        cpuMsPerBatch: s.cpuMicros / 1000 / BATCHES,
        bodyBytes: Buffer.byteLength(body),
        ...(await ask(s.host, { cmd: "stats" })),
      })),
    );
    emulator.pageMs = pageMs.slice(1); // the first warms up
    emulator.fullListing = fullListing;
    return {
      maxStoredMessages: MAX_STORED_MESSAGES,
      concurrency: CONCURRENCY,
      messagesPerBatch: MESSAGES_PER_BATCH,
      rounds: ROUNDS,
      json,
      emulator,
    };
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}

function printEmulatorLoad(load, out) {
  const e = load.emulator;
  out.push(
    `5. Emulator under load: ${count(e.batches)} batch POSTs of ${count(load.messagesPerBatch)} messages (${count(e.bodyBytes)} bytes each), ${load.concurrency} in flight,`,
  );
  out.push(
    `   emulator with --max-stored-messages ${count(load.maxStoredMessages)}, against a node:http server that only parses the JSON (same run, ${load.rounds} interleaved rounds)`,
  );
  out.push(
    table(
      ["server", "wall ms", "batch POST/s", "server CPU ms/batch", "max RSS MiB", "RSS at end MiB", "event loop max ms", "loop p99 ms"],
      [load.json, e].map((r) => [
        r.server,
        r.wallMs.toFixed(0),
        r.batchesPerSecond.toFixed(1),
        r.cpuMsPerBatch.toFixed(2),
        mib(r.maxRssBytes),
        mib(r.rssBytes),
        r.loopDelayMaxMs.toFixed(1),
        r.loopDelayP99Ms.toFixed(1),
      ]),
    ),
  );
  out.push(`   emulator / JSON-only throughput: ${((e.batchesPerSecond / load.json.batchesPerSecond) * 100).toFixed(0)} %`);
  // The steadier figure: throughput also depends on how fast the client (this process) was at the time.
  out.push(`   JSON-only / emulator server CPU per batch: ${((load.json.cpuMsPerBatch / e.cpuMsPerBatch) * 100).toFixed(0)} %`);
  out.push(
    `   GET /_emulator/batches?limit=10 after the load: median ${median(e.pageMs).toFixed(1)} ms, slowest ${Math.max(...e.pageMs).toFixed(1)} ms (${e.pageMs.length} calls)`,
  );
  out.push(`   GET /_emulator/batches (everything stored, streamed): ${e.fullListing.ms.toFixed(0)} ms, ${mib(e.fullListing.bytes)} MiB`);
  if (e.totals)
    out.push(
      `   stored ${count(e.totals.storedMessages)} messages in ${count(e.totals.storedBatches)} batches; accepted ${count(e.totals.messages)} (${count(e.totals.evictedBatches)} batches evicted)`,
    );
}

module.exports = { emulatorLoad, printEmulatorLoad };
