"use strict";
// Section of bench/run.js: `messaging send` of a 1,000,000-line NDJSON file to an emulator
// (its own process), as users run it; the CLI's peak RSS and wall time, then a check that the
// emulator accepted every message exactly once. Then the floor in the same run: the same file
// sent by `send-floor.js` to a server that only parses JSON (`minimal-server.js`).

const { fork, spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { msSince, now } = require("./lib");

/** Writes `count` distinct messages as NDJSON to `file`. */
function writeNdjson(file, count) {
  return new Promise((resolve, reject) => {
    const out = fs.createWriteStream(file);
    out.on("error", reject);
    out.on("finish", resolve);
    let i = 0;
    const write = () => {
      let ok = true;
      while (i < count && ok) {
        ok = out.write(
          `${JSON.stringify({ tos: [`+2547${String(i).padStart(8, "0")}`], body: `Your code is ${100000 + (i % 900000)}. It expires in 10 minutes.` })}\n`,
        );
        i++;
      }
      if (i < count) out.once("drain", write);
      else out.end();
    };
    write();
  });
}

/** Runs a bench script printing `bench-max-rss-bytes` (the CLI under cli-max-rss.js, or the floor); resolves with its exit code, output and peak RSS. */
function runMeasured(script, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, script), ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const match = /bench-max-rss-bytes (\d+)/.exec(stderr);
      resolve({ code, stdout, stderr, maxRssBytes: match ? Number(match[1]) : NaN });
    });
  });
}

/**
 * @param host an emulator-host child (see emulator-host.js), already started
 * @param ask sends a command to it and resolves with the reply
 */
async function sendFile({ lines, host, ask, progress, concurrency }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-bench-send-"));
  try {
    const file = path.join(dir, "messages.ndjson");
    progress(`send file: writing ${lines.toLocaleString("en-US")} lines`);
    await writeNdjson(file, lines);
    const bytes = fs.statSync(file).size;
    const { url, apiKey } = await ask(host, { cmd: "start" });
    const env = { ...process.env, MESSAGING_API_KEY: apiKey, MESSAGING_BASE_URL: url, MESSAGING_STATE_DIR: path.join(dir, "state") };
    progress(`send file: messaging send --concurrency ${concurrency}`);
    const start = now();
    const run = await runMeasured("cli-max-rss.js", ["send", "--file", file, "--concurrency", String(concurrency)], env);
    const wallMs = msSince(start);
    if (run.code !== 0) throw new Error(`messaging send failed (${run.code}): ${run.stderr.slice(-2000)}`);
    const stats = await ask(host, { cmd: "stats", count: true });
    progress(`send file: the floor (send-floor.js), --concurrency ${concurrency}`);
    const floor = await runFloor(file, concurrency, ask);
    return {
      lines,
      bytes,
      concurrency,
      wallMs,
      maxRssBytes: run.maxRssBytes,
      floorMaxRssBytes: floor.maxRssBytes,
      emulatorBatches: stats.batchesRecorded,
      emulatorMessages: stats.messagesRecorded,
      emulatorDistinctRecipients: stats.distinctRecipients,
      summary: run.stdout.trim(),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The floor: send-floor.js sending `file` to a parse-only server; resolves with its peak RSS. */
async function runFloor(file, concurrency, ask) {
  const server = fork(path.join(__dirname, "minimal-server.js"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  try {
    const { url } = await ask(server, { cmd: "start" });
    const run = await runMeasured("send-floor.js", [file, url, String(concurrency)], process.env);
    if (run.code !== 0) throw new Error(`send-floor.js failed (${run.code}): ${run.stderr.slice(-2000)}`);
    await ask(server, { cmd: "stop" });
    return run;
  } finally {
    if (server.connected) server.disconnect();
  }
}

module.exports = { sendFile };
