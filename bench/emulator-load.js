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

async function loadOne(server, progress) {
  const host = fork(path.join(__dirname, "load-host.js"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  try {
    const { url, apiKey } = await ask(host, {
      cmd: "start",
      server,
      options: { maxStoredMessages: MAX_STORED_MESSAGES, deliveryRetrySchedule: [] },
    });
    const auth = `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`;
    const pool = new Pool(url, { connections: CONCURRENCY });
    try {
      const body = batchBody();
      await postBatches(pool, auth, body, WARM_UP, "warm");
      progress(`${server}: ${BATCHES} batches of ${MESSAGES_PER_BATCH} messages, ${CONCURRENCY} in flight`);
      const wallMs = await postBatches(pool, auth, body, BATCHES, "load");
      const result = { server, batches: BATCHES, wallMs, batchesPerSecond: BATCHES / (wallMs / 1000), bodyBytes: Buffer.byteLength(body) };
      if (server === "emulator") {
        const page = [];
        for (let i = 0; i < 6; i++) page.push((await timedGet(pool, auth, "/_emulator/batches?limit=10")).ms);
        const all = await timedGet(pool, auth, "/_emulator/batches");
        result.pageMs = page.slice(1); // the first warms up
        result.fullListing = all;
      }
      Object.assign(result, await ask(host, { cmd: "stats" }));
      return result;
    } finally {
      await pool.close();
    }
  } finally {
    await ask(host, { cmd: "stop" }).catch(() => undefined);
    if (host.connected) host.disconnect();
  }
}

/** Runs section 5: the minimal JSON server first, then the emulator, with the same load. */
async function emulatorLoad(progress) {
  const json = await loadOne("json", progress);
  const emulator = await loadOne("emulator", progress);
  return { maxStoredMessages: MAX_STORED_MESSAGES, concurrency: CONCURRENCY, messagesPerBatch: MESSAGES_PER_BATCH, json, emulator };
}

function printEmulatorLoad(load, out) {
  const e = load.emulator;
  out.push(
    `5. Emulator under load: ${count(e.batches)} batch POSTs of ${count(load.messagesPerBatch)} messages (${count(e.bodyBytes)} bytes each), ${load.concurrency} in flight,`,
  );
  out.push(
    `   emulator with --max-stored-messages ${count(load.maxStoredMessages)}, against a node:http server that only parses the JSON (same run)`,
  );
  out.push(
    table(
      ["server", "wall ms", "batch POST/s", "max RSS MiB", "RSS at end MiB", "event loop max ms", "loop p99 ms"],
      [load.json, e].map((r) => [
        r.server,
        r.wallMs.toFixed(0),
        r.batchesPerSecond.toFixed(1),
        mib(r.maxRssBytes),
        mib(r.rssBytes),
        r.loopDelayMaxMs.toFixed(1),
        r.loopDelayP99Ms.toFixed(1),
      ]),
    ),
  );
  out.push(`   emulator / JSON-only throughput: ${((e.batchesPerSecond / load.json.batchesPerSecond) * 100).toFixed(0)} %`);
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
