"use strict";
// Section 10 of bench/run.js: the emulator with its default byte budget (256 MiB), flooded
// with large bodies and large endpoint fields, in its own process: peak RSS against the
// budget, every answer by status (a reset or a 5xx other than 503 would be a failure), and
// what it kept. Run once with Node's default heap and once with --max-old-space-size=768,
// where the previous emulator aborted inside JSON.stringify. The events have no subscriber
// (no deliveries): what is measured is what the emulator keeps.

const { fork } = require("node:child_process");
const net = require("node:net");
const { DEFAULT_MAX_IN_FLIGHT_BYTES } = require("../dist/emulator/http");
const path = require("node:path");
const { Pool } = require("undici");
const { ask, msSince, now, runSectionAlone } = require("./lib");

const BIG_MESSAGE_CHARS = 9_900_000;
const BIG_BATCHES = 36;
const ENDPOINTS = 2_000;
const EVENTS = 200;
const VERSION = "2024-06-01";

async function flood(url, apiKey) {
  const pool = new Pool(url, { connections: 4 });
  const auth = `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`;
  const statuses = {};
  const count = (status) => (statuses[status] = (statuses[status] ?? 0) + 1);
  const post = async (path, body, contentType) => {
    try {
      const res = await pool.request({
        path,
        method: "POST",
        body,
        headers: { authorization: auth, "x-service-version": VERSION, "content-type": contentType },
      });
      await res.body.dump();
      count(res.statusCode);
    } catch (error) {
      count(`error ${error.code ?? error.message}`);
    }
  };
  const inParallel = async (n, width, fn) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: width }, async () => {
        while (next < n) await fn(next++);
      }),
    );
  };
  const bigBody = (i) =>
    JSON.stringify({ stream: "transactional", messages: [{ tos: ["+254712345678"], body: `${i} ${"x".repeat(BIG_MESSAGE_CHARS)}` }] });
  await inParallel(BIG_BATCHES / 2, 2, (i) => post("/v1/message_batches", bigBody(i), "application/json"));
  const description = "d".repeat(1024);
  await inParallel(ENDPOINTS, 4, (i) =>
    post(
      "/v1/webhooks/endpoints",
      `url=https%3A%2F%2Fexample.com%2F${i}&events%5B%5D=bench.endpoint&description=${description}`,
      "application/x-www-form-urlencoded",
    ),
  );
  const note = "n".repeat(60 * 1024);
  await inParallel(EVENTS, 4, () => post("/_emulator/events", JSON.stringify({ type: "bench.event", data: { note } }), "application/json"));
  await inParallel(BIG_BATCHES / 2, 2, (i) => post("/v1/message_batches", bigBody(BIG_BATCHES / 2 + i), "application/json"));
  // Still answering: a small batch after the flood.
  await post(
    "/v1/message_batches",
    JSON.stringify({ stream: "transactional", messages: [{ tos: ["+254712345678"], body: "after" }] }),
    "application/json",
  );
  await pool.close();
  return statuses;
}

async function floodCase(label, execArgv, progress) {
  progress(
    `emulator flood (${label}): ${BIG_BATCHES} batches of ${(BIG_MESSAGE_CHARS / 1e6).toFixed(1)} MB, ${ENDPOINTS} endpoints with 1 KiB descriptions, ${EVENTS} events of 60 KiB`,
  );
  const host = fork(path.join(__dirname, "flood-host.js"), [], { execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let exitCode = null;
  host.on("exit", (code, signal) => (exitCode = code ?? signal));
  try {
    const { url, apiKey } = await ask(host, { cmd: "start" });
    const start = now();
    const statuses = await flood(url, apiKey);
    const wallMs = msSince(start);
    const stats = await ask(host, { cmd: "stats" });
    await ask(host, { cmd: "stop" });
    return { label, wallMs, statuses, ...stats, exitCode };
  } catch (error) {
    return { label, error: String(error), exitCode };
  } finally {
    if (host.connected) host.disconnect();
  }
}

const CONCURRENT_UPLOADS = 300;
const CHUNKED_UPLOADS = 60;
const UPLOAD_BYTES = 10 * 1000 * 1000;

/** One raw upload of `UPLOAD_BYTES` to the batch route, declared or chunked; resolves to its status (or "reset"). */
function rawUpload(url, apiKey, body, chunked) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  const auth = `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`;
  const length = chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${body.length}`;
  socket.write(
    `POST /v1/message_batches HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${auth}\r\nX-Service-Version: ${VERSION}\r\nContent-Type: application/json\r\n${length}\r\n\r\n`,
  );
  if (chunked) {
    for (let at = 0; at < body.length; at += 1024 * 1024) {
      const piece = body.subarray(at, at + 1024 * 1024);
      socket.write(`${piece.length.toString(16)}\r\n`);
      socket.write(piece);
      socket.write("\r\n");
    }
    socket.write("0\r\n\r\n");
  } else socket.write(body);
  return new Promise((resolve) => {
    let head = "";
    socket.on("data", (chunk) => {
      head += chunk.toString("latin1");
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (status) {
        socket.destroy();
        resolve(status[1]);
      }
    });
    socket.on("error", () => resolve("reset"));
    socket.on("close", () => resolve("reset"));
  });
}

/** Uploads sent all at once (declared, then chunked): what the in-flight bound holds under concurrency. */
async function concurrentFloodCase(progress) {
  const label = `${CONCURRENT_UPLOADS} uploads of 10 MB declared at once, then ${CHUNKED_UPLOADS} chunked`;
  progress(`emulator flood: ${label}`);
  const host = fork(path.join(__dirname, "flood-host.js"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let exitCode = null;
  host.on("exit", (code, signal) => (exitCode = code ?? signal));
  try {
    const { url, apiKey } = await ask(host, { cmd: "start" });
    const body = Buffer.alloc(UPLOAD_BYTES, 0x20);
    const start = now();
    const statuses = {};
    const count = (status) => (statuses[status] = (statuses[status] ?? 0) + 1);
    for (const status of await Promise.all(Array.from({ length: CONCURRENT_UPLOADS }, () => rawUpload(url, apiKey, body, false))))
      count(status);
    for (const status of await Promise.all(Array.from({ length: CHUNKED_UPLOADS }, () => rawUpload(url, apiKey, body, true))))
      count(status);
    const wallMs = msSince(start);
    const stats = await ask(host, { cmd: "stats" });
    await ask(host, { cmd: "stop" });
    return { label, concurrent: true, wallMs, statuses, ...stats, exitCode };
  } catch (error) {
    return { label, error: String(error), exitCode };
  } finally {
    if (host.connected) host.disconnect();
  }
}

async function emulatorFlood(progress) {
  return [
    await floodCase("default heap", [], progress),
    await floodCase("--max-old-space-size=768", ["--max-old-space-size=768"], progress),
    await concurrentFloodCase(progress),
  ];
}

function printEmulatorFlood(rows, out) {
  const mib = (bytes) => (bytes / 1024 / 1024).toFixed(0);
  out.push(
    `10. Emulator flood, default --max-stored-bytes: ${BIG_BATCHES} batches of one ${(BIG_MESSAGE_CHARS / 1e6).toFixed(1)} MB message, ${ENDPOINTS} endpoints with 1 KiB descriptions, ${EVENTS} events of 60 KiB`,
  );
  for (const r of rows) {
    if (r.error !== undefined) {
      out.push(`   ${r.label}: FAILED (${r.error}; exit ${r.exitCode})`);
      continue;
    }
    const statuses = Object.entries(r.statuses)
      .map(([status, n]) => `${status}×${n}`)
      .join(" ");
    out.push(
      `   ${r.label}: ${(r.wallMs / 1000).toFixed(1)} s; answers ${statuses}; peak RSS ${mib(r.maxRssBytes)} MiB (heap limit ${mib(r.heapLimitBytes)} MiB)`,
    );
    if (r.concurrent) {
      out.push(
        `     bound: ${mib(DEFAULT_MAX_IN_FLIGHT_BYTES)} MiB of bodies in flight + ${mib(r.storage.storedBytes)} MiB stored + the process's own overhead; peak RSS ${r.maxRssBytes <= DEFAULT_MAX_IN_FLIGHT_BYTES + r.storage.storedBytes + 256 * 1024 * 1024 ? "within" : "OVER"} that plus 256 MiB`,
      );
      continue;
    }
    out.push(
      `     stored ${mib(r.storage.storedBytes)} of ${mib(r.storage.maxStoredBytes)} MiB budget; batches kept ${r.batchTotals.storedBatches} of ${r.batchTotals.batches} (evicted ${r.batchTotals.evictedBatches}); endpoints ${r.endpoints}; events kept ${r.events} (evicted ${r.storage.evictedEvents})`,
    );
  }
}

module.exports = { emulatorFlood, printEmulatorFlood };

if (require.main === module) runSectionAlone(emulatorFlood, printEmulatorFlood);
